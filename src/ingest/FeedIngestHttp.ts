import { HttpApiBuilder } from "@effect/platform"
import { Effect, Either } from "effect"
import { ClipwrightApi } from "../Api.js"
import { SchemaValidation } from "../domain/Errors.js"
import { inWorkspace } from "../domain/Principal.js"
import type { FeedEnvelope } from "./Envelope.js"
import { FeedEvents } from "./FeedEvents.js"
import { scheduleOf } from "./PublishAt.js"

export const FeedIngestHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "feedIngest",
  (handlers) =>
    Effect.gen(function*() {
      const feeds = yield* FeedEvents
      const checked = (path: { source: string; format: string }, body: FeedEnvelope) => {
        const origin = body.origin ?? "shipped"
        return Either.match(scheduleOf({ ...body, origin }, Date.now()), {
          onLeft: (details) =>
            Effect.fail(new SchemaValidation({ message: "publishAt and timezone do not fit.", details })),
          onRight: (schedule) =>
            feeds.check({ sourceSlug: path.source, formatSlug: path.format, inBody: false }, {
              eventId: body.eventId,
              occurredAt: body.occurredAt,
              origin,
              locale: body.locale,
              data: body.data,
              schedule
            })
        })
      }
      return handlers
        .handle("send", ({ path, payload }) =>
          Effect.flatMap(checked(path, payload), (event) =>
            inWorkspace((workspaceId) =>
              feeds.land(workspaceId, event, { input: "feed", broadcastId: null })
            )))
        .handle("validate", ({ path, payload }) =>
          Effect.flatMap(checked(path, payload), (event) =>
            inWorkspace((workspaceId) =>
              feeds.dryRun(workspaceId, event)
            )))
    })
)
