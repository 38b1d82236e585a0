import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { inWorkspace } from "../domain/Principal.js"
import { Brands } from "./Brands.js"

export const BrandsHttpLive = HttpApiBuilder.group(ClipwrightApi, "brands", (handlers) =>
  Effect.gen(function*() {
    const brands = yield* Brands
    return handlers
      .handle("list", () => inWorkspace(brands.list))
      .handle("draft", () => inWorkspace(brands.draft))
      .handle("get", ({ path }) => inWorkspace((workspaceId) => brands.get(workspaceId, path.id)))
      .handle("create", ({ payload }) => inWorkspace((workspaceId) => brands.create(workspaceId, payload ?? {})))
      .handle(
        "update",
        ({ path, payload }) => inWorkspace((workspaceId) => brands.update(workspaceId, path.id, payload))
      )
      .handle("palette", ({ payload }) => brands.palette(payload))
      .handle(
        "delete",
        ({ path, payload }) => inWorkspace((workspaceId) => brands.remove(workspaceId, path.id, payload?.moveTo))
      )
  }))
