import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { SchemaValidation, UnknownTemplate } from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
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
      .addSuccess(Schema.Struct({ catalogue: Schema.Array(CatalogueEntry), templates: Schema.Array(TemplateView) }))
      .annotateContext(
        doc("List templates", "The catalogue block and the workspace view of every template with a build.")
      )
  )
  .add(
    HttpApiEndpoint.get("reference", "/templates/:templateId/reference")
      .setPath(TemplatePath)
      .addSuccess(ReferenceListing)
      .addError(UnknownTemplate)
      .annotateContext(
        doc("List a template's builds", "Every variant and version of a template, with the ratios each build comes in.")
      )
  )
  .add(
    HttpApiEndpoint.get("shelf", "/formats/templates")
      .addSuccess(Schema.Struct({ templates: Schema.Array(ShelfEntry) }))
      .annotateContext(
        doc(
          "List template formats",
          "One entry per template and variant at its newest build. Also served without an Authorization header."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("describe", "/formats/template/:templateId")
      .setPath(TemplatePath)
      .setUrlParams(BuildQuery)
      .addSuccess(InputDescription)
      .addError(UnknownTemplate)
      .addError(SchemaValidation)
      .annotateContext(
        doc(
          "Describe a template's input",
          "The exact input document a build accepts: keys, JSON Schema and a worked example. Without `variant` and " +
            "`version`, the first variant and newest build. Also served without an Authorization header."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("sync", "/templates/sync")
      .addSuccess(SyncAnswer)
      .annotateContext(
        doc(
          "Mirror the template registry",
          "Administrative (needs `templates:write`; not needed by integrations). Mirrors the template registry into " +
            "the workspace: from then on `GET /v1/templates` shows each mirrored template's `offered`, `descriptorSha` " +
            "and `syncedAt` as of this sync. Answers what changed since the previous sync (before the first one, since " +
            "the registry release): `added` (new in the registry), `changed` (its `descriptorSha` or `offered` " +
            "differs), `withdrawn` (gone from the registry), `unchanged`; template ids in each."
        )
      )
  )
  .pipe(
    workspaceGroup(
      "Templates",
      "The shipped templates: their variants, versions and builds, and the input each build accepts."
    )
  )
{}
