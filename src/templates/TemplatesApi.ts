import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  LocaleNotSupported,
  RatioNotSupported,
  RenderFailed,
  SchemaValidation,
  UnknownTemplate
} from "../domain/Errors.js"
import {
  BuildQuery,
  CatalogueEntry,
  InputDescription,
  ReferenceListing,
  ShelfEntry,
  TemplateView
} from "./TemplateShapes.js"
import { Authentication } from "../http/Security.js"

const TemplatePath = Schema.Struct({ templateId: Schema.String })

/** The read-only template routes: workspace views, reference listings and the public format descriptions. */
export class TemplatesApi extends HttpApiGroup.make("templates")
  .add(
    HttpApiEndpoint.get("list", "/templates")
      .addSuccess(Schema.Struct({ catalogue: Schema.Array(CatalogueEntry), templates: Schema.Array(TemplateView) }))
      .annotate(OpenApi.Description, "The catalogue block and the workspace view of every template with a build.")
  )
  .add(
    HttpApiEndpoint.get("reference", "/templates/:templateId/reference")
      .setPath(TemplatePath)
      .addSuccess(ReferenceListing)
      .addError(UnknownTemplate)
      .annotate(OpenApi.Description, "Every variant and version of a template, with the ratios each build comes in.")
  )
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
      .annotate(
        OpenApi.Description,
        "The build's worked example drawn as an MP4 in that shape; without `variant` and `version`, the first " +
          "variant and newest build. Answers `etag` (the clip's sha256), `cache-control: private, no-cache` and " +
          "`x-template-version`; `If-None-Match` with the etag answers 304. Drawn once per build and shape."
      )
  )
  .add(
    HttpApiEndpoint.get("shelf", "/formats/templates")
      .addSuccess(Schema.Struct({ templates: Schema.Array(ShelfEntry) }))
      .annotate(
        OpenApi.Description,
        "One entry per template and variant at its newest build. Also served without an Authorization header."
      )
  )
  .add(
    HttpApiEndpoint.get("describe", "/formats/template/:templateId")
      .setPath(TemplatePath)
      .setUrlParams(BuildQuery)
      .addSuccess(InputDescription)
      .addError(UnknownTemplate)
      .addError(SchemaValidation)
      .annotate(
        OpenApi.Description,
        "The exact input document a build accepts: keys, JSON Schema and a worked example. Without `variant` and " +
          "`version`, the first variant and newest build. Also served without an Authorization header."
      )
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Templates")
{}
