import { HttpApiBuilder } from "@effect/platform"
import { Clock, Effect, FiberRef } from "effect"
import { ClipwrightApi } from "../api/Api.js"
import { CurrentPrincipal } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { Exports } from "../services/Exports.js"
import { ExportViews } from "../services/ExportViews.js"

export const ExportHttpLive = HttpApiBuilder.group(ClipwrightApi, "export", (handlers) =>
  Effect.gen(function*() {
    const exports = yield* Exports
    const views = yield* ExportViews
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
  }))
