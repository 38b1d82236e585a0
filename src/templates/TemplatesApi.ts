import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { SchemaValidation, UnknownTemplate } from "../domain/Errors.js"
import { Authentication } from "../http/Security.js"
import {
  BuildQuery,
  CatalogueEntry,
  InputDescription,
  ReferenceListing,
  ShelfEntry,
  TemplateView
} from "./TemplateShapes.js"

const SyncAnswer = Schema.Struct({
  syncedAt: Schema.String,
  added: Schema.Array(Schema.String),
  changed: Schema.Array(Schema.String),
  withdrawn: Schema.Array(Schema.String),
  unchanged: Schema.Array(Schema.String)
})

export const TemplatePath = Schema.Struct({ templateId: Schema.String })

/** The template routes: workspace views, reference listings, the public format descriptions and the registry sync. */
export class TemplatesApi extends HttpApiGroup.make("templates")
  .add(
    HttpApiEndpoint.get("list", "/templates")
      .annotate(OpenApi.Summary, "List templates")
      .addSuccess(Schema.Struct({ catalogue: Schema.Array(CatalogueEntry), templates: Schema.Array(TemplateView) }))
      .annotate(OpenApi.Description, "The catalogue block and the workspace view of every template with a build.")
  )
  .add(
    HttpApiEndpoint.get("reference", "/templates/:templateId/reference")
      .annotate(OpenApi.Summary, "List a template's builds")
      .setPath(TemplatePath)
      .addSuccess(ReferenceListing)
      .addError(UnknownTemplate)
      .annotate(OpenApi.Description, "Every variant and version of a template, with the ratios each build comes in.")
  )
  .add(
    HttpApiEndpoint.get("shelf", "/formats/templates")
      .annotate(OpenApi.Summary, "List template formats")
      .addSuccess(Schema.Struct({ templates: Schema.Array(ShelfEntry) }))
      .annotate(
        OpenApi.Description,
        "One entry per template and variant at its newest build. Also served without an Authorization header."
      )
  )
  .add(
    HttpApiEndpoint.get("describe", "/formats/template/:templateId")
      .annotate(OpenApi.Summary, "Describe a template's input")
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
  .add(
    HttpApiEndpoint.post("sync", "/templates/sync")
      .addSuccess(SyncAnswer)
      .annotate(OpenApi.Summary, "Mirror the template registry")
      .annotate(
        OpenApi.Description,
        "Administrative (needs `templates:write`; not needed by integrations). Mirrors the template registry into " +
          "the workspace: from then on `GET /v1/templates` shows each mirrored template's `offered`, `descriptorSha` " +
          "and `syncedAt` as of this sync. Answers what changed since the previous sync (before the first one, since " +
          "the registry release): `added` (new in the registry), `changed` (its `descriptorSha` or `offered` " +
          "differs), `withdrawn` (gone from the registry), `unchanged`; template ids in each."
      )
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Templates")
  .annotate(
    OpenApi.Description,
    "The shipped templates: their variants, versions and builds, and the input each build accepts."
  )
{}
