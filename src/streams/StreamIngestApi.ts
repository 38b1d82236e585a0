import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "../http/Security.js"

export const AddressableStream = Schema.Struct({
  streamId: Schema.String,
  name: Schema.String,
  templateId: Schema.String,
  enabled: Schema.Boolean
})

/** Sending events to streams (SPEC "Sending events"): the routes an integration with `ingest:write` calls. */
export class StreamIngestApi extends HttpApiGroup.make("streamIngest")
  .add(
    HttpApiEndpoint.get("addressable", "/stream")
      .annotate(OpenApi.Summary, "List the streams this key may send to")
      .annotate(
        OpenApi.Description,
        "Every live stream of the key's workspace, disabled ones included (`enabled` false: events to it are " +
          "refused with 409 `stream_disabled`), and `route`: the address events are sent to."
      )
      .addSuccess(Schema.Struct({ route: Schema.String, streams: Schema.Array(AddressableStream) }))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Sending to streams")
  .annotate(
    OpenApi.Description,
    "Sending events to streams: what a key with `ingest:write` may address. Configuring streams is `/v1/streams`."
  )
{}
