import { NodeRuntime } from "@effect/platform-node"
import { Cause, ConfigError, Effect, Layer, Option } from "effect"
import { AppConfig } from "./Config.js"
import { JsonLogsLive } from "./observability/Logging.js"
import { NodeLive } from "./Server.js"

const main = NodeLive.pipe(Layer.provide(AppConfig.layer), Layer.provide(JsonLogsLive), Layer.launch)

const describe = (error: ConfigError.ConfigError): string =>
  error._op === "InvalidData" || error._op === "MissingData" || error._op === "Unsupported"
    ? `${error.path.join("_")}: ${error.message}`
    : error._op === "And" || error._op === "Or"
    ? `${describe(error.left)}; ${describe(error.right)}`
    : error.message

/** A setting the node cannot start with is one plain line on stderr for the operator, not a logged cause. */
const report = (cause: Cause.Cause<unknown>) =>
  Option.match(Option.filter(Cause.failureOption(cause), ConfigError.isConfigError), {
    onNone: () => Effect.logError(cause),
    // A block body: `write`'s boolean made the two branches' types differ, which tsc inferred or refused depending on
    // the order it met the program's files in (the build config refused it after the folders moved).
    onSome: (error) =>
      Effect.sync(() => {
        process.stderr.write(`clipwright cannot start: ${describe(error)}\n`)
      })
  })

NodeRuntime.runMain(main.pipe(Effect.tapErrorCause(report)), { disablePrettyLogger: true, disableErrorReporting: true })
