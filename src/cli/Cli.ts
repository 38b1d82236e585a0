import * as fs from "node:fs"
import * as path from "node:path"
import { parseArgs, type ParseArgsConfig } from "node:util"
import { type Command, commands, convertOption, type OptionValue, UsageError } from "./Commands.js"

/** What the CLI touches of the outside world; the tests and `main.ts` pass their own. */
export interface CliIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
  readonly cwd: string
  readonly fetch: typeof globalThis.fetch
}

export const EXIT_OK = 0
export const EXIT_FAILED = 1
export const EXIT_USAGE = 2

const GLOBAL_HELP = `Options (every admin command):
  --url URL         the node to talk to (default $CLIPWRIGHT_URL, else http://localhost:$PORT, PORT 8080)
  --node-url URL    the same; needed with \`webhook set\`, whose own --url is the webhook address
  --token TOKEN     the admin token (default $ADMIN_TOKEN, else the file \${DATA_DIR:-./data}/admin-token)
  -h, --help        this text

Prints the JSON answer on stdout. An error answer is printed (its error envelope) on stderr with exit
status 1; a usage error exits with status 2.`

const usageOf = (command: Command) => {
  const args = command.args.map((a) => `<${a}>`)
  const options = Object.entries(command.options).map(([name, spec]) =>
    spec.required === true ? `--${name} ${spec.value}` : `[--${name} ${spec.value}]`
  )
  return ["clipwright admin", ...command.words, ...args, ...options].join(" ")
}

const overview = (selected: ReadonlyArray<Command>) =>
  selected.map((command) => `  ${usageOf(command)}\n      ${command.summary}`).join("\n")

const RECEIVER_HELP = `  clipwright receiver --secret whsec_… --port N [--host 127.0.0.1]
      runs a reference webhook receiver: verifies each delivery, prints its posts, answers the receipt fields
  clipwright admin storage migrate
      copies the files of DATA_DIR into the object store of STORAGE_URL, checksums checked (runs locally;
      see clipwright admin storage migrate --help)`

export const helpText = (selected: ReadonlyArray<Command> = commands) =>
  `Usage: clipwright admin <command> [options]\n       clipwright receiver [options]\n\n` +
  `Commands:\n${overview(selected)}\n${RECEIVER_HELP}\n\n${GLOBAL_HELP}\n`

const commandHelp = (command: Command) => {
  const options = Object.entries(command.options).map(([name, spec]) =>
    `  --${`${name} ${spec.value}`.padEnd(28)} ${spec.description}${spec.required === true ? " (required)" : ""}`
  )
  return `Usage: ${usageOf(command)}\n\n${command.summary}\n` +
    (options.length > 0 ? `\n${options.join("\n")}\n` : "") +
    `\n${GLOBAL_HELP}\n`
}

const parseConfig = {
  allowPositionals: true,
  strict: true,
  tokens: true,
  options: {
    help: { type: "boolean", short: "h" },
    url: { type: "string", multiple: true },
    "node-url": { type: "string" },
    token: { type: "string" },
    name: { type: "string" },
    "owner-email": { type: "string" },
    scopes: { type: "string" },
    email: { type: "string" },
    role: { type: "string" },
    "render-allowance": { type: "string" },
    "storage-mb": { type: "string" },
    seats: { type: "string" },
    sources: { type: "string" }
  }
} as const satisfies ParseArgsConfig

const GLOBAL_OPTIONS = new Set(["help", "url", "node-url", "token"])

type Invocation =
  | { readonly _tag: "Help"; readonly text: string }
  | {
    readonly _tag: "Run"
    readonly command: Command
    readonly args: ReadonlyArray<string>
    readonly options: Readonly<Record<string, OptionValue>>
    readonly nodeUrl: string | undefined
    readonly token: string | undefined
  }

const startsWith = (words: ReadonlyArray<string>, prefix: ReadonlyArray<string>) =>
  prefix.every((word, i) => words[i] === word)

/** Reads the command line; throws `UsageError` for anything that is not a complete, valid command. */
export const parse = (argv: ReadonlyArray<string>): Invocation => {
  let parsed
  try {
    parsed = parseArgs({ ...parseConfig, args: [...argv] })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.split("\n")[0] ?? String(error) : String(error))
  }
  const positionals = parsed.positionals
  const help = parsed.values.help === true
  if (positionals.length === 0) {
    if (help) return { _tag: "Help", text: helpText() }
    throw new UsageError("no command given")
  }
  if (positionals[0] !== "admin") {
    throw new UsageError(`unknown command "${positionals[0]}"; commands start with "admin" or are "receiver"`)
  }
  const words = positionals.slice(1)
  const command = commands.find((c) => startsWith(words, c.words))
  if (help) {
    if (command !== undefined) return { _tag: "Help", text: commandHelp(command) }
    const group = commands.filter((c) => startsWith(c.words, words))
    return { _tag: "Help", text: helpText(group.length > 0 ? group : commands) }
  }
  if (command === undefined) {
    throw new UsageError(words.length === 0 ? "no admin command given" : `unknown command "admin ${words.join(" ")}"`)
  }
  const args = words.slice(command.words.length)
  if (args.length !== command.args.length) {
    throw new UsageError(
      command.args.length === 0
        ? `"admin ${command.words.join(" ")}" takes no arguments, got "${args.join(" ")}"`
        : `"admin ${command.words.join(" ")}" takes ${command.args.map((a) => `<${a}>`).join(" ")}`,
      command
    )
  }

  // `--url` is the node's address, except after the command words of a command with its own --url (webhook set).
  const adminIndex = parsed.tokens.find((t) => t.kind === "positional")?.index ?? 0
  const options: Record<string, OptionValue> = {}
  let nodeUrl: string | undefined
  for (const token of parsed.tokens) {
    if (token.kind !== "option") continue
    const value = token.value ?? ""
    const ownUrl = token.name === "url" && command.options["url"] !== undefined && token.index > adminIndex
    if (token.name === "url" && !ownUrl) nodeUrl = value
    else if (token.name === "node-url") nodeUrl = value
    else if (GLOBAL_OPTIONS.has(token.name) && !ownUrl) continue
    else {
      const spec = command.options[token.name]
      if (spec === undefined) {
        throw new UsageError(`"admin ${command.words.join(" ")}" has no option --${token.name}`, command)
      }
      options[token.name] = convertOption(token.name, spec, value, command)
    }
  }
  for (const [name, spec] of Object.entries(command.options)) {
    if (spec.required === true && options[name] === undefined) throw new UsageError(`--${name} is required`, command)
  }
  return { _tag: "Run", command, args, options, nodeUrl, token: parsed.values.token }
}

const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? undefined : value)

/** `--url`, else `$CLIPWRIGHT_URL`, else the local node on `$PORT`. */
export const resolveNodeUrl = (given: string | undefined, env: CliIo["env"]) =>
  (nonEmpty(given) ?? nonEmpty(env["CLIPWRIGHT_URL"]) ?? `http://localhost:${nonEmpty(env["PORT"]) ?? "8080"}`)
    .replace(/\/+$/, "")

/** `--token`, else `$ADMIN_TOKEN`, else the token file the node writes when it draws one itself. */
export const resolveToken = (given: string | undefined, env: CliIo["env"], cwd: string) => {
  const direct = nonEmpty(given) ?? nonEmpty(env["ADMIN_TOKEN"])
  if (direct !== undefined) return direct
  const file = path.resolve(cwd, nonEmpty(env["DATA_DIR"]) ?? "./data", "admin-token")
  try {
    return nonEmpty(fs.readFileSync(file, "utf8").trim())
  } catch {
    return undefined
  }
}

/** Runs one command line; answers the exit status. */
export const run = async (argv: ReadonlyArray<string>, io: CliIo): Promise<number> => {
  if (argv[0] === "receiver") {
    const { runReceiver } = await import("../delivery/receiver/Receiver.js")
    return runReceiver(argv.slice(1), io)
  }
  let invocation: Invocation
  try {
    invocation = parse(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    const usage = error.command === undefined ? helpText() : `Usage: ${usageOf(error.command)}\n`
    io.stderr(`clipwright: ${error.message}\n\n${usage}\nRun "clipwright admin --help" for every command and option.\n`)
    return EXIT_USAGE
  }
  if (invocation._tag === "Help") {
    io.stdout(invocation.text)
    return EXIT_OK
  }
  const { args, command, options } = invocation
  const baseUrl = resolveNodeUrl(invocation.nodeUrl, io.env)
  const token = command.admin ? resolveToken(invocation.token, io.env, io.cwd) : undefined
  // Effect and the contract take a while to load; help and usage errors do without them.
  const { send } = await import("./Answer.js")
  const result = await send((client) => command.call(client, args, options), { baseUrl, token, fetch: io.fetch })
  if (result.ok) io.stdout(`${result.text}\n`)
  else io.stderr(`${result.text}\n`)
  return result.ok ? EXIT_OK : EXIT_FAILED
}
