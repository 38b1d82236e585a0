import { Context, type Effect } from "effect"
import type { Conflict, UpstreamUnavailable } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import type { MediaUse } from "./MediaFile.js"

/** A library file as a holder stores it. */
export interface HeldFile {
  readonly id: string
  readonly name: string
  readonly mimeType: string
}

/**
 * What holds a library file (brand slots; scheduled posts when post lists exist). The library stands below the
 * areas that hold its files, so it asks through this port and the holding areas implement it.
 */
export class MediaHolders extends Context.Tag("clipwright/media/MediaHolders")<MediaHolders, {
  readonly uses: (workspaceId: WorkspaceId, id: string) => Effect.Effect<ReadonlyArray<MediaUse>>
  /** Every holder of `id` holds `next` instead, or lets go of it (`null`). */
  readonly repoint: (
    workspaceId: WorkspaceId,
    id: string,
    next: HeldFile | null
  ) => Effect.Effect<void, Conflict | UpstreamUnavailable>
}>() {}
