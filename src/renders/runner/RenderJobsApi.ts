import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { NotFound, SchemaValidation } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { IdPath } from "../../http/ApiPaths.js"
import { RenderJobPackage, RenderJobPage, RenderJobsQuery } from "./RenderJobViews.js"

/** The render job log: every render of the workspace (direct exports now; channel posts later). */
export class RenderJobsApi extends HttpApiGroup.make("renderJobs")
  .add(
    HttpApiEndpoint.get("list", "/render-jobs")
      .setUrlParams(RenderJobsQuery)
      .addSuccess(RenderJobPage)
      .annotateContext(
        doc(
          "List render jobs",
          "Paged, newest first. `total` counts the jobs matching `state`, `all` every job of the workspace; " +
            "`facets.state` counts jobs per state (every state listed)."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("package", "/render-jobs/:id/package")
      .setPath(IdPath)
      .addSuccess(RenderJobPackage)
      .annotateContext(
        doc(
          "Show a render job's package",
          "What the renderer was handed: template, content, brand, channel context, options; another workspace's: 404."
        )
      )
  )
  .addError(SchemaValidation)
  .addError(NotFound)
  .pipe(workspaceGroup("Render jobs", "Every render the workspace asked for, and what the renderer was handed."))
{}
