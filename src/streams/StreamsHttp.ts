import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { inWorkspace } from "../domain/Principal.js"
import { Streams } from "./Streams.js"

export const StreamsHttpLive = HttpApiBuilder.group(ClipwrightApi, "streams", (handlers) =>
  Effect.gen(function*() {
    const streams = yield* Streams
    return handlers
      .handle("list", () => inWorkspace(streams.list))
      .handle("create", ({ payload }) =>
        inWorkspace((workspaceId) => streams.create(workspaceId, payload)).pipe(
          Effect.map((stream) => ({ stream }))
        ))
      .handle("update", ({ path, payload }) =>
        inWorkspace((workspaceId) => streams.update(workspaceId, path.id, payload)))
      .handle("delete", ({ path }) =>
        inWorkspace((workspaceId) => streams.remove(workspaceId, path.id)))
      .handle("suggestMap", ({ path, payload }) =>
        inWorkspace((workspaceId) =>
          streams.suggest(workspaceId, path.id, payload ?? {})
        ))
  }))
