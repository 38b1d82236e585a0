import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Conflict, NotFound, SchemaValidation } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { IdPath } from "../../http/ApiPaths.js"
import { Cancelled, Queued, Reposted } from "../../posts/JobAnswers.js"
import { JobUpdateBody } from "./JobEdit.js"

/** What a person may do to a job: cancel it, and (once its posts are published) change, remove or repost them. */
export class JobActionsApi extends HttpApiGroup.make("jobActions")
  .add(
    HttpApiEndpoint.post("cancel", "/jobs/:id/cancel")
      .annotateContext(
        doc(
          "Cancel a job",
          "Stops what is still to happen: its render (unless another job still waits on the same video) and its " +
            "unfinished post. Answers `{ ok, cancelledPosts, renderStopped }`; a job with nothing left (rendered and " +
            "handed over, failed, rejected or cancelled) is 409 `conflict`."
        )
      )
      .setPath(IdPath)
      .addSuccess(Cancelled)
      .addError(NotFound)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.post("update", "/jobs/:id/update")
      .annotateContext(
        doc(
          "Change a published post",
          "The post as it will read (description ≤ 5000, caption ≤ 4000, hashtags ≤ 60 of ≤ 60 characters, title ≤ " +
            "400, disclaimer ≤ 300, link, mediaFileId): over a limit is 400 naming the field, never cut. Queues a " +
            "signed `post.update` delivery for a job with published posts (`{ ok, queued }`); any other job is 409 " +
            "`conflict` (`updatable` says so in advance)."
        )
      )
      .setPath(IdPath)
      .setPayload(JobUpdateBody)
      .addSuccess(Queued)
      .addError(NotFound)
      .addError(Conflict)
      .addError(SchemaValidation)
  )
  .add(
    HttpApiEndpoint.post("delete", "/jobs/:id/delete")
      .annotateContext(
        doc(
          "Remove a job's published posts",
          "Queues a signed `post.delete` delivery asking the receiver to remove the job's published posts (`{ ok, " +
            "queued }`); a job with nothing published is 409 `conflict` (`deletable` says so in advance)."
        )
      )
      .setPath(IdPath)
      .addSuccess(Queued)
      .addError(NotFound)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.post("repost", "/jobs/:id/repost")
      .annotateContext(
        doc(
          "Post a published job again",
          "A new job on the same channel with a new post (`{ ok, postGroupId }`), for a job with published posts; " +
            "any other job is 409 `conflict` (`repostable` says so in advance)."
        )
      )
      .setPath(IdPath)
      .addSuccess(Reposted)
      .addError(NotFound)
      .addError(Conflict)
  )
  .pipe(workspaceGroup("Job actions", "Actions on a job (a post group), carried out by its channel."))
{}
