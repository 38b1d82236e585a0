import type { IngestEventDetail } from "../../ingest/IngestEventViews.js"
import type { SignedIn } from "../../people/People.js"
import { stateText, utcText } from "../ConsoleText.js"
import { Layout } from "../Layout.js"
import { eventName, statusLabel } from "./EventsPage.js"

type Event = IngestEventDetail["event"]

const outcomeOf = (event: Event) => {
  switch (event.status) {
    case "ACCEPTED":
      return `Accepted: it made ${event.jobs.length} ${event.jobs.length === 1 ? "job" : "jobs"}.`
    case "NO_MATCH":
      return "No match: no channel listening to where it came from took it, so it made no job."
    case "UNMAPPED":
      return "Unmapped: its content did not fit the template (see the mapping errors), so it made no job."
    case "STALE":
      return "Stale: a newer version of this event had arrived already, so it changed nothing."
  }
}

const Fact = ({ label, value }: { readonly label: string; readonly value: string | null }) =>
  value === null ? "" : (
    <div>
      <dt safe>{label}</dt>
      <dd safe>{value}</dd>
    </div>
  )

const Problems = (
  { heading, problems }: {
    readonly heading: string
    readonly problems: ReadonlyArray<{ readonly path: string; readonly message: string }>
  }
) => (
  <section class="card" aria-labelledby={`h-${heading.replaceAll(" ", "-")}`}>
    <h2 id={`h-${heading.replaceAll(" ", "-")}`} safe>{heading}</h2>
    <ul class="plain">
      {problems.map((p) => (
        <li>
          <code safe>{p.path === "" ? "/" : p.path}</code> <span safe>{p.message}</span>
        </li>
      ))}
    </ul>
  </section>
)

const Jobs = ({ jobs }: { readonly jobs: Event["jobs"] }) => (
  <section class="card" aria-labelledby="h-jobs">
    <h2 id="h-jobs">Jobs</h2>
    {jobs.length === 0 ? <p class="muted">This event made no job.</p> : (
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Channel</th>
            <th scope="col">Status</th>
            <th scope="col">Goes out</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr>
              <td data-label="Job">
                <a href={`/console/jobs/${encodeURIComponent(job.id)}`} safe>{job.id}</a>
              </td>
              <td data-label="Channel" safe>{job.channelName}</td>
              <td data-label="Status" safe>{stateText(job.status)}</td>
              <td data-label="Goes out" safe>{utcText(job.scheduledFor)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
  </section>
)

/** `/console/events/{id}`: one received event, what became of it, its document and its jobs. */
export const eventPage = ({ event, person }: { readonly person: SignedIn; readonly event: Event }) => (
  <Layout title="Event" person={person} current="/console/events">
    <p>
      <a href="/console/events">All events</a>
    </p>
    <h1 class="wrap" safe>{eventName(event)}</h1>
    <p class={`notice${event.status === "ACCEPTED" ? "" : " error"}`} safe>{outcomeOf(event)}</p>
    <div class="card">
      <dl class="facts">
        <Fact label="Status" value={statusLabel[event.status]} />
        <Fact label="Origin" value={`${event.origin} (${event.input})`} />
        <Fact label="Event id" value={event.eventId} />
        <Fact label="Details" value={event.details} />
        <Fact label="Occurred" value={utcText(event.occurredAt)} />
        <Fact label="Received" value={utcText(event.receivedAt)} />
        <Fact label="Language" value={event.locale} />
        <Fact label="Publish at" value={event.publishAt === null ? null : utcText(event.publishAt)} />
        <Fact label="Time zone" value={event.timezone} />
        <Fact label="Stream" value={event.streamId} />
        <Fact label="Feed" value={event.feedId} />
      </dl>
    </div>
    {event.mappingErrors === null || event.mappingErrors.length === 0
      ? ""
      : <Problems heading="Mapping errors" problems={event.mappingErrors} />}
    {event.warnings.length === 0 ? "" : <Problems heading="Warnings" problems={event.warnings} />}
    <Jobs jobs={event.jobs} />
    <section class="card" aria-labelledby="h-document">
      <h2 id="h-document">Document</h2>
      <p class="muted">
        {event.document === null
          ? "The content as it was posted (it made no document)."
          : "The document the field map made of the content."}
      </p>
      <pre
        class="json"
        tabindex="0"
        aria-labelledby="h-document"
      ><code safe>{JSON.stringify(event.document ?? event.data ?? null, null, 2)}</code></pre>
    </section>
  </Layout>
)
