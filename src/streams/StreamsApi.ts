import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import {
  Conflict,
  NoSample,
  NotFound,
  SchemaValidation,
  TemplateNotApproved,
  UnknownTemplate
} from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { IdPath } from "../http/ApiPaths.js"
import { CreateStreamBody, Stream, UpdateStreamBody } from "./Stream.js"

export const SuggestMapAnswer = Schema.Struct({
  suggestion: Schema.Record({ key: Schema.String, value: Schema.Struct({ from: Schema.String }) }),
  templateFields: Schema.Array(Schema.Struct({
    key: Schema.String,
    type: Schema.String,
    label: Schema.String,
    required: Schema.Boolean,
    maxLength: Schema.optional(Schema.Number)
  })),
  sample: Schema.Unknown
})

export class StreamsApi extends HttpApiGroup.make("streams")
  .add(
    HttpApiEndpoint.get("list", "/streams")
      .annotateContext(
        doc(
          "List streams",
          "The workspace's streams, and `route`: the address (`/v1/stream`) their events are sent to."
        )
      )
      .addSuccess(Schema.Struct({ route: Schema.String, streams: Schema.Array(Stream) }))
  )
  .add(
    HttpApiEndpoint.post("create", "/streams")
      .setPayload(CreateStreamBody)
      .addSuccess(Schema.Struct({ stream: Stream }), { status: 201 })
      .addError(Conflict)
      .addError(UnknownTemplate)
      .addError(TemplateNotApproved)
      .annotateContext(
        doc(
          "Create a stream",
          "An id may be chosen (st_ + 12 hex); one taken in any workspace, or ever deleted, is 409."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("update", "/streams/:id/update")
      .annotateContext(
        doc(
          "Update a stream",
          "Every field optional; the id cannot change. A new `templateId` or `fieldMap` is checked against the " +
            "template's newest build and the stream's last payload; a new template sends every subscribing channel " +
            "back to the template's first variant and newest build."
        )
      )
      .setPath(IdPath)
      .setPayload(UpdateStreamBody)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true) }))
      .addError(NotFound)
      .addError(UnknownTemplate)
      .addError(TemplateNotApproved)
  )
  .add(
    HttpApiEndpoint.post("delete", "/streams/:id/delete")
      .annotateContext(
        doc(
          "Delete a stream",
          "Stops the channels listening to it (`stopped` counts them). Its history stays under the name plus ' " +
            "(removed)', events already received still render and post, and the id cannot be used again."
        )
      )
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), stopped: Schema.Number }))
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("suggestMap", "/streams/:id/suggest-map")
      .setPath(IdPath)
      .setPayload(Schema.NullOr(Schema.Struct({
        templateId: Schema.optional(Schema.String),
        templateVersion: Schema.optional(Schema.String)
      })))
      .addSuccess(SuggestMapAnswer)
      .addError(NotFound)
      .addError(NoSample)
      .addError(UnknownTemplate)
      .annotateContext(
        doc("Suggest a field map", "Suggests a field map from the stream's last payload; never applied.")
      )
  )
  .addError(SchemaValidation)
  .pipe(
    workspaceGroup(
      "Streams",
      "Streams: named inputs of data, each bound to a template through a field map; events are sent to them at " +
        "`/v1/stream`."
    )
  )
{}
