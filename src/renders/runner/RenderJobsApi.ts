import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { NotFound, SchemaValidation } from "../../domain/Errors.js"
import { Authentication } from "../../http/Security.js"
import { RenderJobPackage, RenderJobPage, RenderJobsQuery } from "./RenderJobViews.js"

/** The render job log: every render of the workspace (direct exports now; channel posts later). */
export class RenderJobsApi extends HttpApiGroup.make("renderJobs")
  .add(
    HttpApiEndpoint.get("list", "/render-jobs")
      .annotate(OpenApi.Summary, "List render jobs")
      .setUrlParams(RenderJobsQuery)
      .addSuccess(RenderJobPage)
      .annotate(
        OpenApi.Description,
        "Paged, newest first. `total` counts the jobs matching `state`, `all` every job of the workspace; " +
          "`facets.state` counts jobs per state (every state listed)."
      )
  )
  .add(
    HttpApiEndpoint.get("package", "/render-jobs/:id/package")
      .annotate(OpenApi.Summary, "Show a render job's package")
      .setPath(Schema.Struct({ id: Schema.String }))
      .addSuccess(RenderJobPackage)
      .annotate(
        OpenApi.Description,
        "What the renderer was handed: template, content, brand, channel context, options; another workspace's: 404."
      )
  )
  .addError(SchemaValidation)
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Render jobs")
  .annotate(OpenApi.Description, "Every render the workspace asked for, and what the renderer was handed.")
{}
