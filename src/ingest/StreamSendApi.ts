import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { IdempotencyConflict, SchemaValidation, StreamDisabled, UnknownStream } from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { StreamEnvelope } from "./Envelope.js"
import { StreamDuplicateAnswer, StreamSendAnswer, StreamValidateAnswer } from "./IngestAnswers.js"

export const AddressableStream = Schema.Struct({
  streamId: Schema.String,
  name: Schema.String,
  templateId: Schema.String,
  enabled: Schema.Boolean
})

/** Sending events to streams (SPEC "Sending events"): the routes an integration with `ingest:write` calls. */
export class StreamSendApi extends HttpApiGroup.make("streamSend")
  .add(
    HttpApiEndpoint.get("addressable", "/stream")
      .annotateContext(
        doc(
          "List the streams this key may send to",
          "Every live stream of the key's workspace, disabled ones included (`enabled` false: events to it are " +
            "refused with 409 `stream_disabled`), and `route`: the address events are sent to."
        )
      )
      .addSuccess(Schema.Struct({ route: Schema.String, streams: Schema.Array(AddressableStream) }))
  )
  .add(
    HttpApiEndpoint.post("send", "/stream")
      .annotateContext(
        doc(
          "Send an event to a stream",
          "The stream's field map turns `data` into the template's document, which is checked against the " +
            "template's newest build. 202 `accepted`: one job (`postGroupId`) per enabled subscription of an enabled " +
            "channel, written with the event before this answer. 202 `no_match`: stored, nothing drawn. 202 " +
            "`unmapped`: the document does not fit (`mappingErrors`); stored, nothing drawn. 200 `duplicate`: this " +
            "`eventId` already landed with this body; the original outcome stands. The same `eventId` with another " +
            "body is 409 `idempotency_conflict`. Fields beyond the envelope are refused; `templateId` and " +
            "`templateVersion` are ignored (the stream decides)."
        )
      )
      .setPayload(StreamEnvelope)
      .addSuccess(StreamSendAnswer, { status: 202 })
      .addSuccess(StreamDuplicateAnswer)
      .addError(IdempotencyConflict)
  )
  .add(
    HttpApiEndpoint.post("validate", "/stream/validate")
      .annotateContext(
        doc(
          "Dry-run an event on a stream",
          "The same body and checks as sending, storing nothing: the `document` the field map makes, `errors` " +
            "against the template (`valid` false when there are any), `warnings` (text cut by `maxLength`) and the " +
            "channels it would reach (`wouldMatch`). Always 200 for a well-formed envelope."
        )
      )
      .setPayload(StreamEnvelope)
      .addSuccess(StreamValidateAnswer)
  )
  .addError(SchemaValidation)
  .addError(UnknownStream)
  .addError(StreamDisabled)
  .pipe(
    workspaceGroup(
      "Sending to streams",
      "Sending events to streams: what a key with `ingest:write` may address, the send and its dry run. Configuring " +
        "streams is `/v1/streams`."
    )
  )
{}
