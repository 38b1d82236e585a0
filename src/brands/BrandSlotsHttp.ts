import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { CurrentPrincipal } from "../domain/Principal.js"
import { BrandSlots } from "./BrandSlots.js"
import { uploadRoute } from "../media/UploadRoute.js"

export const BrandSlotsHttpLive = HttpApiBuilder.group(ClipwrightApi, "brandSlots", (handlers) =>
  Effect.gen(function*() {
    const slots = yield* BrandSlots
    return handlers
      .handle("upload", ({ path, payload, request, urlParams }) =>
        uploadRoute(
          request,
          Effect.flatMap(CurrentPrincipal, (p) => slots.upload(p, path.id, path.slot, urlParams.locale, payload))
        ))
      .handle("link", ({ path, payload, urlParams }) =>
        Effect.flatMap(
          CurrentPrincipal,
          (p) => slots.link(p.accountId, path.id, path.slot, urlParams.locale, payload.url)
        ))
      .handle("delete", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (p) => slots.clear(p.accountId, path.id, path.slot, urlParams.locale)))
  }))
