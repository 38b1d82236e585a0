import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { NotFound, SchemaValidation } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { IdPath } from "../../http/ApiPaths.js"
import { OverviewAnswer, PipelineAnswer, PipelineJobAnswer, PipelineParams } from "./PipelineAnswers.js"
import { CalendarAnswer, CalendarParams } from "./PipelineCalendar.js"

/** What a dashboard polls: the pipeline now, one job in it, the workspace at a glance, and the posting calendar. */
export class PipelineApi extends HttpApiGroup.make("pipeline")
  .add(
    HttpApiEndpoint.get("show", "/pipeline")
      .setUrlParams(PipelineParams)
      .addSuccess(PipelineAnswer)
      .annotateContext(
        doc(
          "Show the pipeline now",
          "`render`: the workspace's render jobs per state (every state listed), how many are not finished, and the " +
            "newest `limit`. `posts`: jobs (post groups) per status (every status listed), the clips of their renders " +
            "kept and removed, how many are in the rendering, approval, scheduled or publishing stage, and the newest " +
            "`limit` jobs with how long they have been in their status and their stored video. Poll every `pollMs`."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("job", "/pipeline/:id")
      .setPath(IdPath)
      .addSuccess(PipelineJobAnswer)
      .annotateContext(
        doc(
          "Show one job in the pipeline",
          "`{ at, pollMs, job }`: one job (post group) as `GET /v1/pipeline` lists it in `posts.recent`; another " +
            "workspace's: 404."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("overview", "/overview")
      .addSuccess(OverviewAnswer)
      .annotateContext(
        doc(
          "Show the workspace at a glance",
          "Live brands and channels, enabled subscriptions of live channels, templates synchronised, events received " +
            "(all and in the last 24 hours), render jobs per state, stored assets (rendered clips plus media files), " +
            "posts per state, and what needs a person: pending approvals and dead deliveries."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("calendar", "/calendar")
      .setUrlParams(CalendarParams)
      .addSuccess(CalendarAnswer)
      .annotateContext(
        doc(
          "Show the posting calendar",
          "Posts in the window [`from`, `to`) (at most 62 days; `to` after `from`, else 400 naming `to`). Answers " +
            "`{ from, to, channels, days, posts }`: `channels` `[{ id, name }]` are the channels shown (the workspace's " +
            "live ones, or those in `channelIds`, plus any with a post in the window); `days` " +
            "`[{ date, scheduled, published }]` lists every UTC day (YYYY-MM-DD) the window touches with its post counts; " +
            "`posts` `[{ id, postGroupId, at, kind, state, channelId, channelName, platform, title }]` are ordered by " +
            "`at`, which is `publishedAt` for a published post (`kind` published) and `scheduledFor` otherwise " +
            "(`kind` scheduled); a post is in the window when its `at` is."
        )
      )
  )
  .addError(SchemaValidation)
  .addError(NotFound)
  .pipe(
    workspaceGroup(
      "Pipeline",
      "Read-only views for dashboards: the pipeline now, the workspace overview and the posting calendar."
    )
  )
{}
