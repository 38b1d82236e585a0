// The suite's static checks at once, not one after another: the npm scripts named on the command line (`npm run
// checks` names typecheck, lint and lint:openapi; it is the first step of `npm test`). Each one's output is held and
// printed whole when it ends, so outputs never interleave; the exit code is the first failure's, 0 when all pass.
import { spawn } from "node:child_process"

const commands = process.argv.slice(2).map((script) => [script, `npm run --silent ${script}`])
if (commands.length === 0) {
  console.error("usage: node scripts/checks.mjs <npm script>...")
  process.exit(2)
}

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
