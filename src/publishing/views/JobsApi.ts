import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { SchemaValidation } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { JobsParams, PostsParams } from "./JobsParams.js"
import { JobPage, PostPage } from "./JobViews.js"

/** The jobs log (one event on one channel each) and the posts log (what each job publishes). */
export class JobsApi extends HttpApiGroup.make("jobs")
  .add(
    HttpApiEndpoint.get("list", "/jobs")
      .setUrlParams(JobsParams)
      .addSuccess(JobPage)
      .annotateContext(
        doc(
          "List jobs",
          "Paged, newest first. `total` counts the jobs matching every filter, `all` every job of the workspace. " +
            "`facets` count the jobs matching `q`, `channelId`, `brandId`, `since` and `until` per stage, approval, " +
            "platform and origin (every key listed); `stages` count per stage under every filter but `stage`, and " +
            "`unstaged` the jobs whose status is in no stage. `labels` name the channels and brands on the page."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("posts", "/posts")
      .setUrlParams(PostsParams)
      .addSuccess(PostPage)
      .annotateContext(
        doc(
          "List posts",
          "Paged, newest first. `total` counts the posts matching every filter, `all` every post of the workspace; " +
            "`facets` count the posts matching `q` and `channelId` per state and platform (every key listed). " +
            "`assets` carry a signed download URL of the stored video; `clipStored` is false once it was removed."
        )
      )
  )
  .addError(SchemaValidation)
  .pipe(
    workspaceGroup(
      "Jobs and posts",
      "Every job (one event on one channel, its post group) with its status, and every post it made; read from the " +
        "database, never waiting on the pipeline."
    )
  )
{}
