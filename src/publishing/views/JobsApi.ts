import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { SchemaValidation } from "../../domain/Errors.js"
import { Authentication } from "../../http/Security.js"
import { JobsParams, PostsParams } from "./JobsParams.js"
import { JobPage, PostPage } from "./JobViews.js"

/** The jobs log (one event on one channel each) and the posts log (what each job publishes). */
export class JobsApi extends HttpApiGroup.make("jobs")
  .add(
    HttpApiEndpoint.get("list", "/jobs")
      .annotate(OpenApi.Summary, "List jobs")
      .setUrlParams(JobsParams)
      .addSuccess(JobPage)
      .annotate(
        OpenApi.Description,
        "Paged, newest first. `total` counts the jobs matching every filter, `all` every job of the workspace. " +
          "`facets` count the jobs matching `q`, `channelId`, `brandId`, `since` and `until` per stage, approval, " +
          "platform and origin (every key listed); `stages` count per stage under every filter but `stage`, and " +
          "`unstaged` the jobs whose status is in no stage. `labels` name the channels and brands on the page."
      )
  )
  .add(
    HttpApiEndpoint.get("posts", "/posts")
      .annotate(OpenApi.Summary, "List posts")
      .setUrlParams(PostsParams)
      .addSuccess(PostPage)
      .annotate(
        OpenApi.Description,
        "Paged, newest first. `total` counts the posts matching every filter, `all` every post of the workspace; " +
          "`facets` count the posts matching `q` and `channelId` per state and platform (every key listed). " +
          "`assets` carry a signed download URL of the stored video; `clipStored` is false once it was removed."
      )
  )
  .addError(SchemaValidation)
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Jobs and posts")
  .annotate(
    OpenApi.Description,
    "Every job (one event on one channel, its post group) with its status, and every post it made; read from the " +
      "database, never waiting on the pipeline."
  )
{}
