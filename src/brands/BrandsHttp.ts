import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { CurrentPrincipal } from "../domain/Principal.js"
import { Brands } from "./Brands.js"

export const BrandsHttpLive = HttpApiBuilder.group(ClipwrightApi, "brands", (handlers) =>
  Effect.gen(function*() {
    const brands = yield* Brands
    return handlers
      .handle("list", () => Effect.flatMap(CurrentPrincipal, (p) => brands.list(p.accountId)))
      .handle("draft", () => Effect.flatMap(CurrentPrincipal, (p) => brands.draft(p.accountId)))
      .handle("get", ({ path }) => Effect.flatMap(CurrentPrincipal, (p) => brands.get(p.accountId, path.id)))
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) => brands.create(p.accountId, payload ?? {})))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) => brands.update(p.accountId, path.id, payload)))
      .handle("palette", ({ payload }) => brands.palette(payload))
      .handle("delete", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) => brands.remove(p.accountId, path.id, payload?.moveTo)))
  }))
