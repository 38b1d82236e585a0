import { Layer } from "effect"
import { WorkspaceAllowanceEntityLive } from "./allowance/WorkspaceAllowanceEntityLive.js"
import { BrandEntityLive } from "./brand/BrandEntityLive.js"
import { MessageRetentionLive } from "./cron/MessageRetention.js"
import { ExportEntityLive } from "./export/ExportEntityLive.js"
import { RenderRunnerEntityLive } from "./render-runner/RenderRunnerEntityLive.js"
import { StreamEntityLive } from "./stream/StreamEntityLive.js"

/** What every runner hosts: all entities, singletons and crons. */
export const EntitiesLive = Layer.mergeAll(
  StreamEntityLive,
  BrandEntityLive,
  WorkspaceAllowanceEntityLive,
  RenderRunnerEntityLive,
  ExportEntityLive,
  MessageRetentionLive
)
