import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { inWorkspace } from "../domain/Principal.js"
import { Streams } from "../streams/Streams.js"
import { StreamSends } from "./StreamSends.js"

export const StreamSendHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "streamSend",
  (handlers) =>
    Effect.gen(function*() {
      const streams = yield* Streams
      const sends = yield* StreamSends
      return handlers
        .handle("addressable", () => inWorkspace(streams.addressable))
        .handle("send", ({ payload }) => inWorkspace((workspaceId) => sends.send(workspaceId, payload)))
        .handle("validate", ({ payload }) => inWorkspace((workspaceId) => sends.validate(workspaceId, payload)))
    })
)
