import { Context, Effect, Layer, Option } from "effect"
import type { WorkspaceId } from "../domain/Principal.js"
import { MediaRepo } from "./MediaRepo.js"

/** The library's files as other areas may use them (brand slots store their uploads here); tenant-scoped. */
const make = Effect.map(MediaRepo, (repo) => ({
  find: repo.find,
  findByName: repo.findByName,
  /** By id, else by name: how a brand slot refers to a library file. */
  findByRef: (workspaceId: WorkspaceId, ref: string) =>
    Effect.flatMap(
      repo.find(workspaceId, ref),
      (byId) => Option.isSome(byId) ? Effect.succeed(byId) : repo.findByName(workspaceId, ref)
    ),
  insert: repo.insert,
  remove: repo.remove
}))

export class MediaFiles extends Context.Tag("clipwright/media/MediaFiles")<
  MediaFiles,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(MediaFiles, make)
}
