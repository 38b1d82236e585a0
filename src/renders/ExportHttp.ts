import { HttpApiBuilder } from "@effect/platform"
import { Clock, Effect, FiberRef } from "effect"
import { ClipwrightApi } from "../Api.js"
import { DEFAULT_VIDEOS_LIMIT } from "./KeptExport.js"
import { CurrentPrincipal } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { Exports } from "./Exports.js"
import { ExportFiles } from "./ExportFiles.js"
import { ExportViews } from "./ExportViews.js"
import { Keyframes } from "./Keyframes.js"
import { BlobStorage } from "../storage/BlobStorage.js"
import { videoResponse } from "./ExportFilesHttp.js"
import { zipResponse } from "../http/FileResponses.js"

export const ExportHttpLive = HttpApiBuilder.group(ClipwrightApi, "export", (handlers) =>
  Effect.gen(function*() {
    const exports = yield* Exports
    const views = yield* ExportViews
    const files = yield* ExportFiles
    const storage = yield* BlobStorage
    const keyframes = yield* Keyframes
    return handlers
      .handle("timing", ({ payload }) => exports.timing(payload))
      .handle("video", ({ payload }) => Effect.flatMap(CurrentPrincipal, (p) => exports.video(p, payload)))
      .handle("batch", ({ payload }) => Effect.flatMap(CurrentPrincipal, (p) => exports.batch(p, payload)))
      .handle("queue", () =>
        Effect.flatMap(
          Effect.all([CurrentPrincipal, Clock.currentTimeMillis]),
          ([p, now]) => views.queue(p.accountId, new Date(now))
        ))
      .handle("poll", ({ path }) => Effect.flatMap(CurrentPrincipal, (p) => views.poll(p.accountId, path.jobId)))
      .handle("discard", ({ path }) =>
        Effect.flatMap(
          Effect.all([CurrentPrincipal, FiberRef.get(CurrentRequestId)]),
          ([p, requestId]) => views.discard(p.accountId, path.jobId, requestId)
        ))
      .handle("download", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (p) => files.download(p.accountId, path.jobId)).pipe(
          Effect.flatMap((file) => videoResponse(storage, file))
        ))
      .handle("link", ({ path }) => Effect.flatMap(CurrentPrincipal, (p) => files.link(p.accountId, path.jobId)))
      .handle("zip", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) => files.zip(p.accountId, payload)).pipe(
          Effect.map(({ archive, filename }) => zipResponse(archive, filename))
        ))
      .handle("videos", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (p) => files.videos(p.accountId, urlParams.limit ?? DEFAULT_VIDEOS_LIMIT)))
      .handle("keptVideo", ({ path }) => Effect.flatMap(CurrentPrincipal, (p) => files.video(p.accountId, path.jobId)))
      .handle("reuse", ({ path }) => Effect.flatMap(CurrentPrincipal, (p) => files.reuse(p.accountId, path.jobId)))
      .handle("keyframes", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) => keyframes.draw(p.accountId, payload)).pipe(
          Effect.map(({ archive, filename }) => zipResponse(archive, filename))
        ))
  }))
