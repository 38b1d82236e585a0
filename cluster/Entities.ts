import { Layer } from "effect"
import { BrandEntityLive } from "../src/brands/BrandEntityLive.js"
import { ChannelEntityLive } from "../src/channels/ChannelEntityLive.js"
import { HandOverEntityLive } from "../src/delivery/handover/HandOverEntityLive.js"
import { PostListEntityLive } from "../src/queues/PostListEntityLive.js"
import { WorkspaceAllowanceEntityLive } from "../src/renders/allowance/WorkspaceAllowanceEntityLive.js"
import { ExportEntityLive } from "../src/renders/exports/ExportEntityLive.js"
import { RenderRunnerEntityLive } from "../src/renders/runner/RenderRunnerEntityLive.js"
import { StreamEntityLive } from "../src/streams/StreamEntityLive.js"
import { ForgottenMessagesLive } from "./ForgottenMessages.js"
import { MessageRetentionLive } from "./MessageRetention.js"

/** What every runner hosts: all entities, singletons, crons and the net for messages the library forgot. */
export const EntitiesLive = Layer.mergeAll(
  StreamEntityLive,
  BrandEntityLive,
  ChannelEntityLive,
  HandOverEntityLive,
  WorkspaceAllowanceEntityLive,
  RenderRunnerEntityLive,
  ExportEntityLive,
  PostListEntityLive,
  MessageRetentionLive,
  ForgottenMessagesLive
)
