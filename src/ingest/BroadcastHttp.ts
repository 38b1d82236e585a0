import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { CurrentWorkspace } from "../domain/Principal.js"
import { Broadcasts } from "./Broadcasts.js"

export const BroadcastHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "broadcasts",
  (handlers) =>
    Effect.gen(function*() {
      const broadcasts = yield* Broadcasts
      return handlers
        .handle(
          "send",
          ({ payload }) => Effect.flatMap(CurrentWorkspace, (caller) => broadcasts.send(caller.keyId, payload))
        )
        .handle("validate", ({ payload }) => broadcasts.validate(payload))
        .handle("find", ({ path }) => broadcasts.find(path.id))
        .handle("list", ({ urlParams }) => broadcasts.list(urlParams.page, urlParams.perPage))
    })
)
