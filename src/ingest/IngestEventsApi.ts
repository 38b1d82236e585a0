import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { NotFound, SchemaValidation } from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { IdPath } from "../http/ApiPaths.js"
import { IngestEventDetail, IngestEventPage, IngestEventsParams } from "./IngestEventViews.js"

/** The ingest log: every event the workspace received, whatever became of it. */
export class IngestEventsApi extends HttpApiGroup.make("ingestEvents")
  .add(
    HttpApiEndpoint.get("list", "/ingest-events")
      .setUrlParams(IngestEventsParams)
      .addSuccess(IngestEventPage)
      .annotateContext(
        doc(
          "List received events",
          "Paged, newest first. `total` counts the events matching every filter, `all` every event of the " +
            "workspace; `facets` count the events matching `q` per status and per origin (every key listed)."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("show", "/ingest-events/:id")
      .setPath(IdPath)
      .addSuccess(IngestEventDetail)
      .annotateContext(
        doc(
          "Show a received event",
          "One event as posted, its normalized `document`, mapping errors and warnings, and every job (post group) " +
            "it produced, in channel creation order; another workspace's: 404."
        )
      )
  )
  .addError(SchemaValidation)
  .addError(NotFound)
  .pipe(
    workspaceGroup(
      "Received events",
      "The ingest log: every event sent to the workspace's streams and feeds, with its status and the jobs it made."
    )
  )
{}
