import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { SchemaValidation, UnknownTemplate } from "../domain/Errors.js"
import {
  BuildQuery,
  CatalogueEntry,
  InputDescription,
  ReferenceListing,
  ShelfEntry,
  TemplateView
} from "./TemplateShapes.js"
import { Authentication } from "../http/Security.js"

export const TemplatePath = Schema.Struct({ templateId: Schema.String })

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
