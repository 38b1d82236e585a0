import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { inWorkspace } from "../domain/Principal.js"
import { IngestEvents } from "./IngestEvents.js"

export const IngestEventsHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "ingestEvents",
  (handlers) =>
    Effect.gen(function*() {
      const events = yield* IngestEvents
      return handlers
        .handle("list", ({ urlParams }) => inWorkspace((workspaceId) => events.list(workspaceId, urlParams)))
        .handle("show", ({ path }) => inWorkspace((workspaceId) => events.show(workspaceId, path.id)))
    })
)
