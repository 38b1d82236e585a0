import type * as Html from "@kitajs/html"
import type { SignedIn } from "../../people/People.js"
import type { PipelineEntry } from "../../publishing/pipeline/PipelineAnswers.js"
import type { HandOver, JobStory } from "../../publishing/views/JobStories.js"
import { stateText } from "../ConsoleText.js"
import { at, deliveryHref } from "../deliveries/DeliveryBits.js"
import { Layout } from "../Layout.js"
import { durationText, waitText } from "../pipeline/WaitText.js"
import { JobForms } from "./JobForms.js"
import type { Notice, UpdateFields } from "./JobOutcome.js"

export interface JobPageProps {
  readonly person: SignedIn
  readonly story: JobStory
  /** The job as the pipeline shows it: how long in its stage and why it waits. */
  readonly entry: PipelineEntry
  readonly now: number
  readonly canAct: boolean
  readonly notice?: Notice | undefined
  readonly typed?: UpdateFields | undefined
  readonly problem?: string | undefined
}

const time = (date: Date | null) => date === null ? null : at(date.toISOString())

/** A fact of a section; none when it has no value yet. */
const Fact = ({ label, value }: { readonly label: string; readonly value: string | null | undefined }) =>
  value === null || value === undefined || value === "" ? "" : (
    <div>
      <dt safe>{label}</dt>
      <dd safe>{value}</dd>
    </div>
  )

const Section = (
  { children, id, title }: { readonly id: string; readonly title: string; readonly children?: Html.Children }
) => (
  <section class="card" aria-labelledby={id}>
    <h2 id={id} safe>{title}</h2>
    {children}
  </section>
)

const HandOverItem = ({ d }: { readonly d: HandOver }) => (
  <li class={`attempt card${d.state === "DEAD" ? " failed" : ""}`}>
    <h3>
      <a href={deliveryHref(d.id)} safe>{`${d.event} by ${d.via}`}</a>
    </h3>
    <dl class="facts">
      <Fact label="State" value={stateText(d.state)} />
      <Fact label="Made" value={at(d.createdAt)} />
      <Fact label="Delivered" value={at(d.deliveredAt)} />
      <Fact label="Next attempt" value={at(d.nextAttemptAt)} />
    </dl>
    {d.attempts.length === 0 ? <p class="muted">Not tried yet.</p> : (
      <ol class="plain">
        {d.attempts.map((a) => (
          <li safe>
            {`Attempt ${a.attempt}${a.redelivery ? " (redelivery)" : ""}: ${at(a.startedAt)}, ${a.durationMs} ms, ${
              a.statusCode === null ? "no status" : `status ${a.statusCode}`
            }${a.error === null ? ", accepted" : `, ${a.error}`}`}
          </li>
        ))}
      </ol>
    )}
  </li>
)

/** `/console/jobs/{id}`: a job's whole story (event, render, post, approval, hand-overs) and what may be done to it. */
export const jobPage = ({ canAct, entry, notice, now, person, problem, story, typed }: JobPageProps) => {
  const { job } = story
  const name = job.postTitle ?? job.eventTitle ?? `Job ${job.id}`
  const retry = story.handOvers.find((d) => d.event === "post.publish" && d.state === "RETRYING")
  const waiting = waitText({
    ...entry,
    scheduledFor: job.postScheduledFor?.toISOString() ?? null,
    nextAttemptAt: retry?.nextAttemptAt ?? null
  }, now)
  return (
    <Layout title="Job" person={person} current="/console/pipeline">
      <p>
        <a href="/console/pipeline">The pipeline</a>
      </p>
      <h1 class="wrap" safe>{name}</h1>
      {notice === undefined
        ? ""
        : <p class={notice.failed ? "notice error" : "notice"} role="status" safe>{notice.text}</p>}
      <div class="card">
        <dl class="facts">
          <Fact label="Status" value={stateText(job.status)} />
          <Fact label="In it for" value={durationText(entry.stageSeconds)} />
          <Fact label="Waiting for" value={waiting} />
          <Fact label="Job" value={job.id} />
          <Fact label="Channel" value={`${job.channelName} (brand ${job.brandName})`} />
          <Fact label="Template" value={`${job.templateId} ${job.templateVariant ?? ""} ${job.ratio} ${job.locale}`} />
          <Fact label="Made" value={time(job.createdAt)} />
          <Fact label="Error" value={job.error} />
          <Fact label="Repost of" value={job.repostOf} />
        </dl>
      </div>
      {canAct ? <JobForms story={story} typed={typed} problem={problem} /> : ""}
      <Section id="h-event" title="Event">
        <dl class="facts">
          <Fact label="Event id" value={job.eventId} />
          <Fact label="Origin" value={job.eventOrigin} />
          <Fact label="Details" value={job.eventDetails} />
          <Fact label="Occurred" value={time(job.occurredAt)} />
          <Fact label="Received" value={time(job.receivedAt)} />
        </dl>
        <p>
          <a href={`/console/events/${encodeURIComponent(job.ingestEventId)}`}>The event and its document</a>
        </p>
      </Section>
      <Section id="h-render" title="Render">
        {job.renderId === null ? <p class="muted">No render asked for yet.</p> : (
          <dl class="facts">
            <Fact label="Render" value={job.renderId} />
            <Fact label="State" value={stateText(job.renderState ?? "")} />
            <Fact label="Drawn" value={`${Math.round((job.renderProgress ?? 0) * 100)}%`} />
            <Fact
              label="Place in the queue"
              value={entry.renderPosition === null ? null : String(entry.renderPosition)}
            />
            <Fact label="Ahead of it" value={entry.renderWait?.reason} />
            <Fact label="Asked for" value={time(job.renderSubmittedAt)} />
            <Fact label="Started" value={time(job.renderStartedAt)} />
            <Fact label="Finished" value={time(job.renderFinishedAt)} />
            <Fact label="Error" value={job.renderError} />
          </dl>
        )}
      </Section>
      <Section id="h-post" title="Post">
        {job.postId === null ? <p class="muted">Made once its video is ready.</p> : (
          <dl class="facts">
            <Fact label="Post" value={job.postId} />
            <Fact label="Goes to" value={`${job.platform ?? ""} (${job.surface ?? ""})`} />
            <Fact label="Title" value={job.postTitle} />
            <Fact label="Caption" value={job.caption} />
            <Fact label="Hashtags" value={(job.hashtags ?? []).map((t) => `#${t}`).join(" ")} />
            <Fact label="Made" value={time(job.postCreatedAt)} />
            <Fact label="Goes out" value={time(job.postScheduledFor)} />
            <Fact label="Published" value={time(job.publishedAt)} />
            <Fact label="Platform post id" value={job.platformPostId} />
            <Fact label="Permalink" value={job.permalink} />
            <Fact label="Failure" value={job.failureReason} />
          </dl>
        )}
      </Section>
      <Section id="h-approval" title="Approval">
        {job.approvalId === null
          ? (
            <p class="muted">
              {job.channelApproval === "PER_POST"
                ? "Asked for once the video is ready."
                : "Not needed on this channel."}
            </p>
          )
          : (
            <>
              <dl class="facts">
                <Fact label="State" value={stateText(job.approvalState ?? "")} />
                <Fact label="Asked" value={time(job.requestedAt)} />
                <Fact label="Decided" value={time(job.decidedAt)} />
                <Fact label="By" value={job.decidedBy} />
                <Fact label="Note" value={job.note} />
              </dl>
              <p>
                <a href={`/console/approvals/${encodeURIComponent(job.approvalId)}`}>The approval</a>
              </p>
            </>
          )}
      </Section>
      <Section id="h-handover" title="Hand-over">
        {story.handOvers.length === 0
          ? <p class="muted">Nothing handed over yet.</p>
          : <ol class="plain attempts">{story.handOvers.map((d) => <HandOverItem d={d} />)}</ol>}
      </Section>
    </Layout>
  )
}
