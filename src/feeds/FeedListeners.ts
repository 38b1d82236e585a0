import { Context, type Effect } from "effect"
import type { WorkspaceId } from "../domain/Principal.js"

/** The channels listening to shipped feeds. Feeds stand below channels, so they ask through this port. */
export class FeedListeners extends Context.Tag("clipwright/feeds/FeedListeners")<FeedListeners, {
  /** For each feed with one, how many live channels of the workspace hold an enabled BROADCAST subscription to it. */
  readonly subscribers: (workspaceId: WorkspaceId) => Effect.Effect<ReadonlyMap<string, number>>
}>() {}
