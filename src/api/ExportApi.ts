import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  LocaleNotSupported,
  NotFound,
  RateLimited,
  RatioNotSupported,
  SchemaValidation,
  UnknownTemplate,
  UpstreamUnavailable
} from "../domain/Errors.js"
import { BatchBody, ExportPoll, QueueEntry, TimingBody, VideoBody } from "../domain/Export.js"
import { Authentication } from "./Security.js"

const JobPath = Schema.Struct({ jobId: Schema.String })
const StartedJob = Schema.Struct({ jobId: Schema.String, ratio: Schema.String, locale: Schema.String })

export class ExportApi extends HttpApiGroup.make("export")
  .add(
    HttpApiEndpoint.post("timing", "/direct-export/timing")
      .setPayload(TimingBody)
      .addSuccess(Schema.Struct({ fps: Schema.Number, frames: Schema.Number, durationMs: Schema.Number }))
      .annotate(OpenApi.Description, "Frame rate, frame count and duration of a build for this content. Free; stores nothing.")
  )
  .add(
    HttpApiEndpoint.post("video", "/direct-export/video")
      .setPayload(VideoBody)
      .addSuccess(Schema.Struct({ jobId: Schema.String }), { status: 202 })
      .annotate(OpenApi.Description, "Starts one video (version required; locale defaults to en). Poll it by jobId.")
  )
  .add(
    HttpApiEndpoint.post("batch", "/direct-export/batch")
      .setPayload(BatchBody)
      .addSuccess(Schema.Struct({ jobs: Schema.Array(StartedJob), problem: Schema.NullOr(Schema.String) }), { status: 202 })
      .annotate(OpenApi.Description, "One video per ratio per locale, at most 24; everything is checked for all first.")
  )
  .add(
    HttpApiEndpoint.get("queue", "/direct-export/queue")
      .addSuccess(Schema.Struct({ exports: Schema.Array(QueueEntry) }))
      .annotate(OpenApi.Description, "Waiting or rendering, failed in the last two hours, newest 100 kept; settles finished ones.")
  )
  .add(
    HttpApiEndpoint.get("poll", "/direct-export/video/:jobId")
      .setPath(JobPath)
      .addSuccess(ExportPoll)
      .annotate(OpenApi.Description, "`renderer` is the render job's state; `ahead` the renders queued before this one.")
  )
  .add(
    HttpApiEndpoint.post("discard", "/direct-export/video/:jobId/discard")
      .setPath(JobPath)
      .addSuccess(Schema.Struct({ discarded: Schema.Boolean }))
  )
  .addError(SchemaValidation)
  .addError(UnknownTemplate)
  .addError(RatioNotSupported)
  .addError(LocaleNotSupported)
  .addError(RateLimited)
  .addError(UpstreamUnavailable)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Direct export")
{}
