import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, NotFound } from "../domain/Errors.js"
import { Authentication } from "../http/Security.js"

/** What a person may do to a job (more actions arrive with hand-over: update, delete, repost). */
export class JobActionsApi extends HttpApiGroup.make("jobActions")
  .add(
    HttpApiEndpoint.post("cancel", "/jobs/:id/cancel")
      .annotate(OpenApi.Summary, "Cancel a job")
      .annotate(
        OpenApi.Description,
        "Stops what is still to happen: its render (unless another job still waits on the same video) and its " +
          "unfinished post. Answers `{ ok, cancelledPosts, renderStopped }`; a job with nothing left (rendered and " +
          "handed over, failed, rejected or cancelled) is 409 `conflict`."
      )
      .setPath(Schema.Struct({ id: Schema.String }))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), cancelledPosts: Schema.Number, renderStopped: Schema.Boolean }))
      .addError(NotFound)
      .addError(Conflict)
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Job actions")
  .annotate(OpenApi.Description, "Actions on a job (a post group), carried out by its channel.")
{}
