import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { IdempotencyConflict, SchemaValidation, UnknownFormat, UnknownSource } from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { FeedEnvelope } from "./Envelope.js"
import { FeedSendAnswer, FeedValidateAnswer } from "./IngestAnswers.js"

const FeedPath = Schema.Struct({ source: Schema.String, format: Schema.String })

/** Pushing a shipped feed's data for the key's own workspace (SPEC "Sending events", feed envelope). */
export class FeedIngestApi extends HttpApiGroup.make("feedIngest")
  .add(
    HttpApiEndpoint.post("send", "/ingest/:source/:format")
      .annotateContext(
        doc(
          "Push a feed event",
          "Always 202. `accepted`: one job per channel with an enabled BROADCAST subscription to the feed, while " +
            "the workspace has the feed on. `no_match`: nobody listens (or the feed is off). `stale`: `occurredAt` is " +
            "older than the feed's `maxAgeSeconds`; stored, nothing drawn. `duplicate`: the `eventId` already landed " +
            "with this body (`idempotent` true). `origin` defaults to `shipped`; `publishAt` (an instant, or a local " +
            "time read in `timezone`) and `timezone` are accepted only with origin `manual` and schedule the posts. " +
            "Content not fitting the feed's template is 400 naming the field under `/data`."
        )
      )
      .setPath(FeedPath)
      .setPayload(FeedEnvelope)
      .addSuccess(FeedSendAnswer, { status: 202 })
      .addError(IdempotencyConflict)
  )
  .add(
    HttpApiEndpoint.post("validate", "/ingest/:source/:format/validate")
      .annotateContext(
        doc(
          "Dry-run a feed event",
          "The same checks as pushing, storing nothing: `valid` false when the event would be stale, `wouldMatch` " +
            "the channels it would reach, `normalized` the content as it would be stored."
        )
      )
      .setPath(FeedPath)
      .setPayload(FeedEnvelope)
      .addSuccess(FeedValidateAnswer)
  )
  .addError(SchemaValidation)
  .addError(UnknownSource)
  .addError(UnknownFormat)
  .pipe(
    workspaceGroup("Pushing feed data", "Data for a shipped feed, pushed by the workspace itself by the feed's slugs.")
  )
{}
