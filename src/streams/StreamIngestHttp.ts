import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { inWorkspace } from "../domain/Principal.js"
import { Streams } from "./Streams.js"

export const StreamIngestHttpLive = HttpApiBuilder.group(ClipwrightApi, "streamIngest", (handlers) =>
  Effect.gen(function*() {
    const streams = yield* Streams
    return handlers.handle("addressable", () => inWorkspace(streams.addressable))
  }))
