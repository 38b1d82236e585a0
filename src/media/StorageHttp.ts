import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { inWorkspace } from "../domain/Principal.js"
import { StorageUsage } from "./StorageUsage.js"

export const StorageHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "storage",
  (handlers) =>
    Effect.map(
      StorageUsage,
      (storage) =>
        handlers.handle("split", ({ payload }) =>
          inWorkspace((workspaceId) =>
            storage.setSplit(workspaceId, payload.mediaSharePercent)
          ).pipe(
            Effect.map((block) => ({ storage: block }))
          ))
    )
)
