import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import {
  AssetUnavailable,
  ChecksumMismatch,
  LocaleNotSupported,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  RatioNotSupported,
  RenderFailed,
  RenderTimeout,
  SchemaValidation,
  TemplateNotApproved,
  UnknownTemplate,
  UpstreamUnavailable
} from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { BatchBody, ExportPoll, QueueEntry, TimingBody, VideoBody } from "./Export.js"
import { AsVideoQuery, ExportLink, KeptEntry, KeptExport, ReuseRecord, VideosQuery, ZipBody } from "./KeptExport.js"
import { KeyframesBody } from "./KeyframesBody.js"

const JobPath = Schema.Struct({ jobId: Schema.String })
const StartedJob = Schema.Struct({ jobId: Schema.String, ratio: Schema.String, locale: Schema.String })

export class ExportApi extends HttpApiGroup.make("export")
  .add(
    HttpApiEndpoint.post("timing", "/direct-export/timing")
      .setPayload(TimingBody)
      .addSuccess(Schema.Struct({ fps: Schema.Number, frames: Schema.Number, durationMs: Schema.Number }))
      .annotateContext(
        doc(
          "Compute a video's timing",
          "Frame rate, frame count and duration of a build for this content. Free; stores nothing."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("video", "/direct-export/video")
      .setPayload(VideoBody)
      .addSuccess(Schema.Struct({ jobId: Schema.String }), { status: 202 })
      .annotateContext(
        doc(
          "Export a video",
          "Starts one video (version required; locale defaults to en). Poll it by jobId. A template the operator has " +
            "not cleared for the workspace: 409 `template_not_approved` at `/templateId`. With `brandId` (a brand of " +
            "the workspace, else 404 at `/brandId`) the video wears the brand: colours, fonts, logo, badge, background, " +
            "safe area, the ratio's intro and outro (counted in `durationMs`) and sound. Pictures (`media://<id or " +
            "name>`) come from the media library; one it does not hold: 400 at `/data/clipData/images/<i>/url`."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("batch", "/direct-export/batch")
      .setPayload(BatchBody)
      .addSuccess(Schema.Struct({ jobs: Schema.Array(StartedJob), problem: Schema.NullOr(Schema.String) }), {
        status: 202
      })
      .annotateContext(
        doc(
          "Export a batch of videos",
          "One video per ratio per locale, at most 24; everything is checked for all first."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("queue", "/direct-export/queue")
      .addSuccess(Schema.Struct({ exports: Schema.Array(QueueEntry) }))
      .annotateContext(
        doc(
          "List the export queue",
          "Waiting or rendering, failed in the last two hours, newest 100 kept; settles finished ones."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("poll", "/direct-export/video/:jobId")
      .setPath(JobPath)
      .addSuccess(ExportPoll)
      .annotateContext(
        doc("Poll an export", "`renderer` is the render job's state; `ahead` the renders queued before this one.")
      )
  )
  .add(
    HttpApiEndpoint.post("discard", "/direct-export/video/:jobId/discard")
      .annotateContext(
        doc(
          "Discard an export",
          "Stops a rendering export and deletes its kept copy: `{ discarded: true }`; asked again, `{ discarded: " +
            "false }`."
        )
      )
      .setPath(JobPath)
      .addSuccess(Schema.Struct({ discarded: Schema.Boolean }))
  )
  .add(
    HttpApiEndpoint.get("download", "/direct-export/video/:jobId/download")
      .setPath(JobPath)
      .setUrlParams(AsVideoQuery)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "video/mp4" }))
      .annotateContext(
        doc(
          "Download an exported video",
          "The .mp4 itself, inline. Byte ranges (206, 416) for kept videos; an unkept one is answered whole while its " +
            "file lasts (two hours after it finished). Not finished: 409; its render ran past the time limit: 504 " +
            "`render_timeout`; file gone or discarded: 404; stored bytes that no longer match the clip's sha256: 502 " +
            "`checksum_mismatch` (nothing is sent). Settles the export."
        )
      )
      .addError(RenderTimeout)
      .addError(ChecksumMismatch)
  )
  .add(
    HttpApiEndpoint.post("link", "/direct-export/video/:jobId/link")
      .setPath(JobPath)
      .addSuccess(ExportLink)
      .annotateContext(
        doc(
          "Link an exported video",
          "A link needing no credential: `/v1/export-files/{jobId}?as=video&key=…`. Kept video: valid while kept " +
            "(`expiresAt` null); otherwise 15 minutes. Before the video finished: 502 `asset_unavailable`; its render " +
            "ran past the time limit: 504 `render_timeout`."
        )
      )
      .addError(RenderTimeout)
  )
  .add(
    HttpApiEndpoint.post("zip", "/direct-export/zip")
      .setPayload(ZipBody)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/zip" }))
      .annotateContext(
        doc(
          "Download exports as a zip",
          "One .mp4 per export (1 to 24), named template_variant_version_brand_ratio_locale.mp4. An unfinished " +
            "export: 409 naming it; over 400 MB together: 413; a stored video that no longer matches its sha256: 502 " +
            "`checksum_mismatch` before any byte of the zip is sent."
        )
      )
      .addError(ChecksumMismatch)
  )
  .add(
    HttpApiEndpoint.get("videos", "/direct-export/videos")
      .setUrlParams(VideosQuery)
      .addSuccess(Schema.Struct({ exports: Schema.Array(KeptEntry), kept: Schema.Number }))
      .annotateContext(
        doc(
          "List kept exports",
          "Kept exports newest first (`limit` default 24, max 100) and how many are kept in all. `videoUrl` is the " +
            "download route of the export, called with the same bearer key; ask `/link` for a link needing none."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("keptVideo", "/direct-export/videos/:jobId")
      .setPath(JobPath)
      .addSuccess(Schema.Struct({ export: KeptExport }))
      .annotateContext(doc("Show a kept export", "One kept export with the content it was drawn from; not kept: 404."))
  )
  .add(
    HttpApiEndpoint.get("reuse", "/direct-export/video/:jobId/reuse")
      .setPath(JobPath)
      .addSuccess(Schema.Struct({ reuse: ReuseRecord }))
      .annotateContext(
        doc(
          "Show what an export was drawn from",
          "What the export was drawn from, to start another like it; works while rendering, failed or kept; " +
            "makes nothing."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("keyframes", "/direct-export/keyframes")
      .setPayload(KeyframesBody)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/zip" }))
      .addError(RenderFailed)
      .annotateContext(
        doc(
          "Download a video's keyframes",
          "Stills of the video body's clip: a zip of one PNG per keyframe (1 to 60), named `<name>.png` (made safe and " +
            "unique). Every start refusal applies except the allowance, which keyframes do not touch; a frame at or " +
            "past the clip's end: 400 naming `/frames/<i>/frame`; a frame not drawn within the render time limit: 504 " +
            "`render_timeout`. The zip is streamed as the frames are drawn (no content-length). A workspace that " +
            "already has its share of keyframes requests in progress on the node: 503 `upstream_unavailable` with " +
            "`retryAfterSeconds`."
        )
      )
      .addError(RenderTimeout)
  )
  .addError(SchemaValidation)
  .addError(UnknownTemplate)
  .addError(TemplateNotApproved)
  .addError(RatioNotSupported)
  .addError(LocaleNotSupported)
  .addError(RateLimited)
  .addError(UpstreamUnavailable)
  .addError(NotFound)
  .addError(AssetUnavailable)
  .addError(PayloadTooLarge)
  .pipe(
    workspaceGroup(
      "Direct export",
      "Videos drawn straight from a template and content: export, poll, download, keep, link, zip and keyframes."
    )
  )
{}
