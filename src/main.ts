import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger } from "effect"
import { AppConfig } from "./Config.js"
import { NodeLive } from "./Server.js"

const main = NodeLive.pipe(Layer.provide(AppConfig.layer), Layer.provide(Logger.json), Layer.launch)

NodeRuntime.runMain(main.pipe(Effect.tapErrorCause(Effect.logError)), { disablePrettyLogger: true })
