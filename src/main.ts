import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { AppConfig } from "./Config.js"
import { JsonLogsLive } from "./observability/Logging.js"
import { NodeLive } from "./Server.js"

const main = NodeLive.pipe(Layer.provide(AppConfig.layer), Layer.provide(JsonLogsLive), Layer.launch)

NodeRuntime.runMain(main.pipe(Effect.tapErrorCause(Effect.logError)), { disablePrettyLogger: true })
