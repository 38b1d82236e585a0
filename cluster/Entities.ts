import { Layer } from "effect"
import { WorkspaceAllowanceEntityLive } from "./allowance/WorkspaceAllowanceEntityLive.js"
import { MessageRetentionLive } from "./cron/MessageRetention.js"
import { ExportEntityLive } from "./export/ExportEntityLive.js"
import { RenderRunnerEntityLive } from "./render-runner/RenderRunnerEntityLive.js"
import { StreamEntityLive } from "./stream/StreamEntityLive.js"

/** What every runner hosts: all entities, singletons and crons. */
export const EntitiesLive = Layer.mergeAll(
  StreamEntityLive,
  WorkspaceAllowanceEntityLive,
  RenderRunnerEntityLive,
  ExportEntityLive,
  MessageRetentionLive
)
