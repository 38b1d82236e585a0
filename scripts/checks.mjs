// The suite's static checks at once, not one after another: `tsc --noEmit`, `npm run lint` and `npm run lint:openapi`
// (`npm run checks`, the first step of `npm test`). Each one's output is held and printed whole when it ends, so
// three outputs never interleave; the exit code is the first failure's, 0 when all pass.
import { spawn } from "node:child_process"

const commands = [
  ["typecheck", "npx tsc --noEmit"],
  ["lint", "npm run --silent lint"],
  ["lint:openapi", "npm run --silent lint:openapi"]
]

const run = ([name, command]) =>
  new Promise((resolve) => {
    const startedAt = Date.now()
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    child.on("close", (code) => {
      const seconds = ((Date.now() - startedAt) / 1000).toFixed(0)
      process.stdout.write(`── ${name} (${command}): ${code === 0 ? "ok" : `exit ${code}`} in ${seconds} s\n${output}`)
      resolve(code ?? 1)
    })
  })

const codes = await Promise.all(commands.map(run))
process.exit(codes.find((code) => code !== 0) ?? 0)
