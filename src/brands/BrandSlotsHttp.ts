import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { CurrentWorkspace, inWorkspace } from "../domain/Principal.js"
import { uploadRoute } from "../media/UploadRoute.js"
import { BrandSlots } from "./BrandSlots.js"

export const BrandSlotsHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "brandSlots",
  (handlers) =>
    Effect.gen(function*() {
      const slots = yield* BrandSlots
      return handlers
        .handle("upload", ({ path, payload, request, urlParams }) =>
          uploadRoute(
            request,
            Effect.flatMap(CurrentWorkspace, (p) => slots.upload(p, path.id, path.slot, urlParams.locale, payload))
          ))
        .handle("link", ({ path, payload, urlParams }) =>
          Effect.flatMap(
            CurrentWorkspace,
            (p) => slots.link(p.workspaceId, path.id, path.slot, urlParams.locale, payload.url)
          ))
        .handle("delete", ({ path, urlParams }) =>
          inWorkspace((workspaceId) =>
            slots.clear(workspaceId, path.id, path.slot, urlParams.locale)
          ))
    })
)
