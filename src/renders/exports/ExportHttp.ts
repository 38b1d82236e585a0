import { HttpApiBuilder } from "@effect/platform"
import { Clock, Effect, FiberRef } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { CurrentWorkspace, inWorkspace } from "../../domain/Principal.js"
import { CurrentRequestId } from "../../domain/RequestId.js"
import { zipResponse } from "../../http/FileResponses.js"
import { BlobStorage } from "../../storage/BlobStorage.js"
import { ExportFiles } from "./ExportFiles.js"
import { videoResponse } from "./ExportFilesHttp.js"
import { Exports } from "./Exports.js"
import { ExportViews } from "./ExportViews.js"
import { DEFAULT_VIDEOS_LIMIT } from "./KeptExport.js"
import { Keyframes } from "./Keyframes.js"

export const ExportHttpLive = HttpApiBuilder.group(ClipwrightApi, "export", (handlers) =>
  Effect.gen(function*() {
    const exports = yield* Exports
    const views = yield* ExportViews
    const files = yield* ExportFiles
    const storage = yield* BlobStorage
    const keyframes = yield* Keyframes
    return handlers
      .handle("timing", ({ payload }) => exports.timing(payload))
      .handle("video", ({ payload }) => Effect.flatMap(CurrentWorkspace, (p) => exports.video(p, payload)))
      .handle("batch", ({ payload }) => Effect.flatMap(CurrentWorkspace, (p) => exports.batch(p, payload)))
      .handle("queue", () =>
        Effect.flatMap(
          Effect.all([CurrentWorkspace, Clock.currentTimeMillis]),
          ([p, now]) => views.queue(p.workspaceId, new Date(now))
        ))
      .handle("poll", ({ path }) => inWorkspace((workspaceId) => views.poll(workspaceId, path.jobId)))
      .handle("discard", ({ path }) =>
        Effect.flatMap(
          Effect.all([CurrentWorkspace, FiberRef.get(CurrentRequestId)]),
          ([p, requestId]) => views.discard(p.workspaceId, path.jobId, requestId)
        ))
      .handle("download", ({ path }) =>
        inWorkspace((workspaceId) => files.download(workspaceId, path.jobId)).pipe(
          Effect.flatMap((file) => videoResponse(storage, file))
        ))
      .handle("link", ({ path }) => inWorkspace((workspaceId) => files.link(workspaceId, path.jobId)))
      .handle("zip", ({ payload }) =>
        inWorkspace((workspaceId) => files.zip(workspaceId, payload)).pipe(
          Effect.map(({ archive, filename }) => zipResponse(archive, filename))
        ))
      .handle("videos", ({ urlParams }) =>
        inWorkspace((workspaceId) =>
          files.videos(workspaceId, urlParams.limit ?? DEFAULT_VIDEOS_LIMIT)
        ))
      .handle("keptVideo", ({ path }) => inWorkspace((workspaceId) => files.video(workspaceId, path.jobId)))
      .handle("reuse", ({ path }) => inWorkspace((workspaceId) => files.reuse(workspaceId, path.jobId)))
      .handle("keyframes", ({ payload }) =>
        inWorkspace((workspaceId) => keyframes.draw(workspaceId, payload)).pipe(
          Effect.map(({ archive, filename }) => zipResponse(archive, filename))
        ))
  }))
