import type * as Html from "@kitajs/html"
import type { JobStory } from "../../publishing/views/JobStories.js"
import { jobHref } from "../pipeline/PipelinePage.js"
import type { UpdateFields } from "./JobOutcome.js"

const ActionForm = (
  { action, button, children, danger, id }: {
    readonly id: string
    readonly action: string
    readonly button: string
    readonly danger?: boolean
    readonly children?: Html.Children
  }
) => (
  <form method="post" action={`${jobHref(id)}/${action}`} class="job-action">
    <p>{children}</p>
    <button type="submit" class={danger === true ? "danger" : undefined} safe>{button}</button>
  </form>
)

/**
 * What the owner and Operations may do to the job now, as SPEC allows it: `Cancel` while something is still to happen;
 * `Repost`, `Update` and `Delete` once its post is published. A problem with the update is shown above its fields.
 */
export const JobForms = (
  { problem, story, typed }: {
    readonly story: JobStory
    readonly typed?: UpdateFields | undefined
    readonly problem?: string | undefined
  }
) => {
  const { job } = story
  const none = !story.cancellable && !story.repostable && !story.deletable && !story.updatable
  return (
    <section class="card job-actions" aria-labelledby="h-actions">
      <h2 id="h-actions">Actions</h2>
      {none ? <p class="muted">Nothing can be done to this job now.</p> : ""}
      {story.cancellable
        ? (
          <ActionForm id={job.id} action="cancel" button="Cancel" danger>
            Stops its render (unless another job waits on the same video) and its post.
          </ActionForm>
        )
        : ""}
      {story.repostable
        ? (
          <ActionForm id={job.id} action="repost" button="Repost">
            Posts it again on the same channel, as a new job.
          </ActionForm>
        )
        : ""}
      {story.deletable
        ? (
          <ActionForm id={job.id} action="delete" button="Delete" danger>
            Asks the receiver, by a signed post.delete delivery, to remove the published post.
          </ActionForm>
        )
        : ""}
      {story.updatable
        ? (
          <form method="post" action={`${jobHref(job.id)}/update`} class="job-action update">
            <h3>Update the published post</h3>
            {problem === undefined
              ? ""
              : <p class="notice error" role="alert" id="update-problem" safe>{problem}</p>}
            <label for="update-title">Title</label>
            <input id="update-title" name="title" type="text" value={typed?.title ?? job.postTitle ?? ""} />
            <label for="update-caption">Caption</label>
            <textarea id="update-caption" name="caption" rows="3" safe>{typed?.caption ?? job.caption ?? ""}</textarea>
            <label for="update-hashtags">Hashtags</label>
            <input
              id="update-hashtags"
              name="hashtags"
              type="text"
              aria-describedby="update-hashtags-hint"
              value={typed?.hashtags ?? (job.hashtags ?? []).join(" ")}
            />
            <p class="muted hint" id="update-hashtags-hint">Separated by spaces or commas. Empty keeps them.</p>
            <button type="submit">Update</button>
          </form>
        )
        : ""}
    </section>
  )
}
