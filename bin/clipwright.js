#!/usr/bin/env node
// Launcher for the operator CLI: registers tsx so the CLI itself stays TypeScript (src/cli/).
import { register } from "tsx/esm/api"

register()
const argv = process.argv.slice(2)
if (argv[0] === "admin" && argv[1] === "storage" && argv[2] === "migrate") {
  // Works on this machine's files, not through a node: not part of the HTTP-only admin CLI.
  const { runStorageMigrate } = await import(new URL("../src/storage/setup/MigrateCommand.ts", import.meta.url).href)
  process.exitCode = await runStorageMigrate(argv.slice(3), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd()
  })
} else {
  await import(new URL("../src/cli/main.ts", import.meta.url).href)
}
