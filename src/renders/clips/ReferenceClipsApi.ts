import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import {
  LocaleNotSupported,
  RatioNotSupported,
  RenderFailed,
  SchemaValidation,
  UnknownTemplate
} from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { BuildQuery } from "../../templates/TemplateShapes.js"

/** A template's worked example drawn as a video: the template routes' one route that renders. */
export class ReferenceClipsApi extends HttpApiGroup.make("referenceClips")
  .add(
    HttpApiEndpoint.get("referenceClip", "/templates/:templateId/reference/:ratio")
      .setPath(Schema.Struct({ templateId: Schema.String, ratio: Schema.String }))
      .setUrlParams(BuildQuery)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "video/mp4" }))
      .addError(UnknownTemplate)
      .addError(SchemaValidation)
      .addError(RatioNotSupported)
      .addError(LocaleNotSupported)
      .addError(RenderFailed)
      .annotateContext(
        doc(
          "Download a template's reference clip",
          "The build's worked example drawn as an MP4 in that shape; without `variant` and `version`, the first " +
            "variant and newest build. Answers `etag` (the clip's sha256), `cache-control: private, no-cache` and " +
            "`x-template-version`; `If-None-Match` with the etag answers 304. Drawn once per build and shape."
        )
      )
  )
  .pipe(workspaceGroup("Templates", "Reference clips: each build's worked example drawn in each ratio."))
{}
