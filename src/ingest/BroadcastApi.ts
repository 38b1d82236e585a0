import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { IdempotencyConflict, NotFound, SchemaValidation, UnknownFormat, UnknownSource } from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { IdPath } from "../http/ApiPaths.js"
import {
  BroadcastAnswer,
  BroadcastDetail,
  BroadcastPage,
  BroadcastsQuery,
  BroadcastValidateAnswer
} from "./Broadcast.js"
import { BroadcastEnvelope } from "./Envelope.js"

/** The platform's broadcasts of shipped feed data (platform credential, scope `ingest:shipped`). */
export class BroadcastApi extends HttpApiGroup.make("broadcasts")
  .add(
    HttpApiEndpoint.post("send", "/broadcast")
      .annotateContext(
        doc(
          "Broadcast a feed event",
          "One feed event, named by `sourceSlug` and `formatSlug`, for every workspace that has the feed on and a " +
            "channel subscribed: each gets an event of its own (in its ingest log, with its jobs), all written before " +
            "this 202. `eventId` is the broadcast's idempotency key: repeating the broadcast is `duplicate` and " +
            "completes any workspace a crash left out; another body under it is 409. Content not fitting the feed's " +
            "template is 400 naming the field under `/data`."
        )
      )
      .setPayload(BroadcastEnvelope)
      .addSuccess(BroadcastAnswer, { status: 202 })
      .addError(IdempotencyConflict)
      .addError(UnknownSource)
      .addError(UnknownFormat)
  )
  .add(
    HttpApiEndpoint.post("validate", "/broadcast/validate")
      .annotateContext(
        doc(
          "Dry-run a broadcast",
          "The same checks, storing nothing: whether it is stale and how many workspaces it would reach."
        )
      )
      .setPayload(BroadcastEnvelope)
      .addSuccess(BroadcastValidateAnswer)
      .addError(UnknownSource)
      .addError(UnknownFormat)
  )
  .add(
    HttpApiEndpoint.get("find", "/broadcast/:id")
      .annotateContext(
        doc("Show a broadcast", "The broadcast and each workspace's event made of it, with its status and job count.")
      )
      .setPath(IdPath)
      .addSuccess(BroadcastDetail)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("list", "/broadcasts")
      .annotateContext(doc("List broadcasts", "Paged, newest first."))
      .setUrlParams(BroadcastsQuery)
      .addSuccess(BroadcastPage)
  )
  .addError(SchemaValidation)
  .pipe(
    workspaceGroup(
      "Broadcasts",
      "Shipped feed data sent by the platform to every workspace listening. Workspace keys are refused (403)."
    )
  )
{}
