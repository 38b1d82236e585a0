import { Layer } from "effect"
import { MessageRetentionLive } from "./cron/MessageRetention.js"
import { StreamEntityLive } from "./stream/StreamEntityLive.js"

/** What every runner hosts: all entities, singletons and crons. */
export const EntitiesLive = Layer.mergeAll(StreamEntityLive, MessageRetentionLive)
