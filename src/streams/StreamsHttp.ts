import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { CurrentPrincipal } from "../domain/Principal.js"
import { Streams } from "./Streams.js"

export const StreamsHttpLive = HttpApiBuilder.group(ClipwrightApi, "streams", (handlers) =>
  Effect.gen(function*() {
    const streams = yield* Streams
    return handlers
      .handle("list", () => Effect.flatMap(CurrentPrincipal, (p) => streams.list(p.accountId)))
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) => streams.create(p.accountId, payload)).pipe(
          Effect.map((stream) => ({ stream }))
        ))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) => streams.update(p.accountId, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentPrincipal, (p) => streams.remove(p.accountId, path.id)))
      .handle("suggestMap", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) => streams.suggest(p.accountId, path.id, payload ?? {})))
  }))
