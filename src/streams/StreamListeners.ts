import { Context, type Effect } from "effect"
import type { Conflict, UpstreamUnavailable } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"

export interface StreamListener {
  readonly channelId: string
  readonly channelName: string
}

/**
 * The channels listening to streams. Streams stand below channels, so they ask through this port and the channels
 * area answers it.
 */
export class StreamListeners extends Context.Tag("clipwright/streams/StreamListeners")<StreamListeners, {
  /** For each stream of the workspace with one, the live channels holding an enabled subscription to it. */
  readonly listening: (workspaceId: WorkspaceId) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<StreamListener>>>
  /**
   * The stream's template changed: every channel subscribing to it goes back to the template's first variant and
   * newest build (null pins). Answers how many subscriptions were reset.
   */
  readonly templateChanged: (
    workspaceId: WorkspaceId,
    streamId: string,
    templateId: string
  ) => Effect.Effect<number, UpstreamUnavailable | Conflict>
}>() {}
