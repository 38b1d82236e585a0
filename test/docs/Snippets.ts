import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { freePort } from "../support/Node.js"

/** One ```sh block of a page, and the line it starts on (for the failure message). */
export interface ShellBlock {
  readonly line: number
  readonly code: string
}

export interface BlockResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export const root = path.resolve(import.meta.dirname, "../..")

export const shellBlocks = (page: string): Array<ShellBlock> => {
  const lines = fs.readFileSync(path.join(root, page), "utf8").split("\n")
  const blocks: Array<ShellBlock> = []
  let start = -1
  for (const [i, line] of lines.entries()) {
    if (start < 0 && line.trim() === "```sh") start = i
    else if (start >= 0 && line.trim() === "```") {
      blocks.push({ line: start + 1, code: lines.slice(start + 1, i).join("\n") })
      start = -1
    }
  }
  return blocks
}

/**
 * Runs a page's shell blocks one after another as a reader pastes them into one terminal: a variable set by one
 * block is there in the next (each block is its own bash, so the runner carries the variables it set over).
 * Three things differ from a terminal, each so the test can run beside others:
 * - the ports the pages name (8080 the node, 8787 the receiver) are replaced by free ones;
 * - `DATA_DIR` is a fresh folder, so the checkout's `./data` is never touched;
 * - `npm ci` does nothing (the checkout is installed; reinstalling would replace the suite's own node_modules), and
 *   `npm start`, which holds a terminal until Ctrl-C, runs in the background and returns once `/health` answers 200,
 *   as the reader waits for it before turning to another terminal. It runs the package's start script as is, but
 *   not `prestart` (the build the suite's global setup has just made: 30-60 s of a loaded machine's CPU per file).
 * Each block runs in a process group of its own; `stop` ends every group, so what a block left running (the node,
 * a receiver started with `&`) ends with the file.
 */
export const snippetShell = async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-snippets-"))
  const port = await freePort()
  const receiverPort = await freePort()
  const state = path.join(dir, "state.sh")
  fs.writeFileSync(state, "")
  const groups: Array<number> = []
  const env: Record<string, string> = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: process.env["HOME"] ?? dir,
    PORT: String(port),
    DATA_DIR: path.join(dir, "data")
  }
  const baseline = await new Promise<string>((resolve) => {
    const child = spawn("bash", ["-c", "compgen -v"], { env })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.on("exit", () => resolve(out.split("\n").join(" ")))
  })
  const prelude = `
source ${JSON.stringify(state)}
npm() {
  case "$1" in
    ci) echo "(npm ci skipped: the checkout is installed)" ;;
    start)
      command npm start --ignore-scripts > ${JSON.stringify(path.join(dir, "node.log"))} 2>&1 &
      for __i in $(seq 1 600); do curl -sf "localhost:$PORT/health" > /dev/null && return 0; sleep 0.2; done
      echo "the node did not answer /health" >&2; cat ${JSON.stringify(path.join(dir, "node.log"))} >&2; return 1 ;;
    *) command npm "$@" ;;
  esac
}
set -e -o pipefail
`
  const epilogue = `
set +e
for __n in $(compgen -v); do
  case " ${baseline} __n __i " in *" $__n "*) ;; *) declare -p "$__n" ;; esac
done > ${JSON.stringify(state)}.next && mv ${JSON.stringify(state)}.next ${JSON.stringify(state)}
`
  let count = 0
  const run = (block: ShellBlock): Promise<BlockResult> => {
    const n = ++count
    const code = block.code.replace(/\b8080\b/g, String(port)).replace(/\b8787\b/g, String(receiverPort))
    const script = path.join(dir, `block-${n}.sh`)
    fs.writeFileSync(script, `${prelude}\n${code}\n${epilogue}`)
    const out = path.join(dir, `block-${n}.out`)
    const err = path.join(dir, `block-${n}.err`)
    const stdout = fs.openSync(out, "w")
    const stderr = fs.openSync(err, "w")
    const child = spawn("bash", [script], { cwd: root, env, detached: true, stdio: ["ignore", stdout, stderr] })
    if (child.pid !== undefined) groups.push(child.pid)
    return new Promise((resolve) => {
      child.on("exit", (exitCode) => {
        fs.closeSync(stdout)
        fs.closeSync(stderr)
        resolve({ code: exitCode, stdout: fs.readFileSync(out, "utf8"), stderr: fs.readFileSync(err, "utf8") })
      })
    })
  }
  const stop = async () => {
    for (const group of groups) {
      try {
        process.kill(-group, "SIGTERM")
      } catch {
        // The group has ended already.
      }
    }
    await new Promise((r) => setTimeout(r, 1500))
    fs.rmSync(dir, { recursive: true, force: true })
  }
  const variable = (name: string): string | undefined => {
    const line = fs.readFileSync(state, "utf8").split("\n").find((l) => new RegExp(`^declare -\\S* ${name}=`).test(l))
    return line?.replace(/^[^=]*="?/, "").replace(/"$/, "")
  }
  return {
    run,
    stop,
    port,
    receiverPort,
    dataDir: env["DATA_DIR"]!,
    nodeLog: () => readOr(path.join(dir, "node.log")),
    variable
  }
}

const readOr = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "")

/** A block went wrong: it failed, or an answer it printed is an error envelope. */
export const failure = (block: ShellBlock, result: BlockResult): string | undefined => {
  if (result.code !== 0) return `block at line ${block.line} exited ${result.code}:\n${result.stdout}\n${result.stderr}`
  const printed = `${result.stdout}\n${result.stderr}`
  if (/"error"\s*:\s*\{/.test(printed)) return `block at line ${block.line} printed an error:\n${printed}`
  return undefined
}
