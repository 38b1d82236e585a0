import type { SignedIn } from "../../people/People.js"
import { JobStage, stageOf } from "../../posts/JobStatus.js"
import type { InFlightEntry, InFlightPage } from "../../publishing/pipeline/PipelineInFlight.js"
import { stateText } from "../ConsoleText.js"
import { Layout } from "../Layout.js"
import { durationText, secondsText, waitText } from "./WaitText.js"

export const STAGE_LABELS: Record<JobStage, string> = {
  rendering: "Rendering",
  approval: "Approval",
  scheduled: "Scheduled",
  publishing: "Publishing",
  published: "Published",
  failed: "Failed",
  rejected: "Rejected",
  cancelled: "Cancelled",
  deleted: "Deleted"
}

export const jobHref = (id: string) => `/console/jobs/${encodeURIComponent(id)}`

/** Jobs per stage, every stage listed, from the counts per status. */
const stageCounts = (counts: InFlightPage["counts"]) => {
  const byStage = Object.fromEntries(JobStage.literals.map((stage) => [stage, 0])) as Record<JobStage, number>
  for (const [status, n] of Object.entries(counts)) byStage[stageOf[status as keyof typeof stageOf]] += n
  return JobStage.literals.map((stage) => ({ stage, n: byStage[stage] }))
}

const jobName = (job: InFlightEntry) => job.title ?? `Job ${job.id}`

const Row = ({ job, now }: { readonly job: InFlightEntry; readonly now: number }) => (
  <tr data-job={job.id}>
    <td data-label="Job">
      <a href={jobHref(job.id)} safe>{jobName(job)}</a>
    </td>
    <td data-label="Channel" safe>{job.channelName}</td>
    <td data-label="Stage">
      <span class={`badge stage-${stageOf[job.state]}`} safe>{stateText(job.state)}</span>
    </td>
    <td data-label="For" safe>{durationText(job.stageSeconds)}</td>
    <td data-label="Waiting for" safe>{waitText(job, now)}</td>
  </tr>
)

const pageHref = (page: number) => page === 1 ? "/console/pipeline" : `/console/pipeline?page=${page}`

/**
 * The part of the page that refreshes itself: htmx asks `/console/pipeline/live` every `pollMs` (the interval the API
 * asks its pollers to keep) and swaps this block for the answer. Without script, reloading the page does the same.
 */
export const PipelineLive = ({ live }: { readonly live: InFlightPage }) => {
  const now = Date.parse(live.at)
  return (
    <div
      id="pipeline-live"
      hx-get={`/console/pipeline/live?page=${live.page}`}
      hx-trigger={`every ${live.pollMs}ms`}
      hx-swap="outerHTML"
    >
      <section class="card" aria-labelledby="h-stages">
        <h2 id="h-stages">Jobs per stage</h2>
        <ul class="stages">
          {stageCounts(live.counts).map(({ n, stage }) => (
            <li class={`stage-${stage}`}>
              <span class="n" safe>{String(n)}</span> <span safe>{STAGE_LABELS[stage]}</span>
            </li>
          ))}
        </ul>
        <p class="muted" safe>
          {`${live.inFlight} ${live.inFlight === 1 ? "job" : "jobs"} in flight. As of ${secondsText(live.at)}.`}
        </p>
      </section>
      <section aria-labelledby="h-flight">
        <h2 id="h-flight">In flight</h2>
        {live.jobs.length === 0
          ? <p class="muted">Nothing is rendering, waiting or being handed over.</p>
          : (
            <table class="stack pipeline">
              <thead>
                <tr>
                  <th scope="col">Job</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Stage</th>
                  <th scope="col">For</th>
                  <th scope="col">Waiting for</th>
                </tr>
              </thead>
              <tbody>{live.jobs.map((job) => <Row job={job} now={now} />)}</tbody>
            </table>
          )}
        {live.page > 1 || live.hasNext
          ? (
            <nav class="paging" aria-label="Pages">
              {live.page > 1 ? <a href={pageHref(live.page - 1)}>Previous</a> : ""}
              <span safe>{`Page ${live.page}`}</span>
              {live.hasNext ? <a href={pageHref(live.page + 1)}>Next</a> : ""}
            </nav>
          )
          : ""}
      </section>
    </div>
  )
}

/** `/console/pipeline`: how many jobs are in each stage, and every job in flight with why it waits, kept live. */
export const pipelinePage = ({ live, person }: { readonly person: SignedIn; readonly live: InFlightPage }) => (
  <Layout title="Pipeline" person={person} current="/console/pipeline">
    <h1>Pipeline</h1>
    <p class="muted" safe>
      {`Newest first, 50 a page. This page updates itself every ${
        Math.round(live.pollMs / 1000)
      } seconds; each job links to its story.`}
    </p>
    <PipelineLive live={live} />
  </Layout>
)
