import { Context, Effect, Layer } from "effect"
import type { WorkspaceId } from "../../domain/Principal.js"
import { StorageUsage } from "../../media/StorageUsage.js"
import { ClipRepo } from "./ClipRepo.js"

/**
 * A pipeline render's clips kept with the workspace's rendered clips, as a direct export's are: room is made by
 * removing the oldest kept clips no post still to publish relies on; a clip larger than the whole clips share (or
 * with no room left beside the needed ones) stays stored but unkept. Only clips not yet kept are looked at, so a
 * render announced again (a redelivered Start) changes nothing, and a clip removed meanwhile is not brought back.
 */
const make = Effect.gen(function*() {
  const clips = yield* ClipRepo
  const storage = yield* StorageUsage

  const keep = Effect.fn("PipelineClips.keep")(function*(workspaceId: WorkspaceId, renderJobId: string) {
    const unkept = yield* clips.unkeptOf(workspaceId, renderJobId)
    const needed = clips.neededIds(workspaceId)
    yield* Effect.forEach(
      unkept,
      (clip) => storage.makeRoomForClip(workspaceId, clip.id, clip.byteSize, needed).pipe(Effect.orDie),
      { discard: true }
    )
  })

  return { keep }
})

export class PipelineClips extends Context.Tag("clipwright/renders/clips/PipelineClips")<
  PipelineClips,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(PipelineClips, make)
}
