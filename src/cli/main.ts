import { run } from "./Cli.js"

/** Entry of `npx clipwright` (through bin/clipwright.js). */
process.exitCode = await run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  fetch: globalThis.fetch
})
