import type { IngestEventPage, IngestEventRow } from "../../ingest/IngestEventViews.js"
import type { SignedIn } from "../../people/People.js"
import { utcText } from "../ConsoleText.js"
import { Layout } from "../Layout.js"

export const STATUSES = ["ACCEPTED", "NO_MATCH", "UNMAPPED", "STALE"] as const
export const ORIGINS = ["shipped", "custom", "manual"] as const

export const statusLabel: Record<(typeof STATUSES)[number], string> = {
  ACCEPTED: "Accepted",
  NO_MATCH: "No match",
  UNMAPPED: "Unmapped",
  STALE: "Stale"
}

export interface EventsFilter {
  readonly status?: (typeof STATUSES)[number] | undefined
  readonly origin?: (typeof ORIGINS)[number] | undefined
  readonly q?: string | undefined
  readonly page: number
}

export const eventsHref = (filter: EventsFilter) => {
  const params = new URLSearchParams()
  if (filter.status !== undefined) params.set("status", filter.status)
  if (filter.origin !== undefined) params.set("origin", filter.origin)
  if (filter.q !== undefined) params.set("q", filter.q)
  if (filter.page > 1) params.set("page", String(filter.page))
  const query = params.toString()
  return query === "" ? "/console/events" : `/console/events?${query}`
}

export const eventName = (event: Pick<IngestEventRow, "postTitle" | "details" | "eventId">) =>
  event.postTitle ?? (event.details === "" ? event.eventId : event.details)

const Filters = ({ filter, found }: { readonly filter: EventsFilter; readonly found: IngestEventPage }) => (
  <form method="get" action="/console/events" class="filters card" role="search" aria-label="Filter events">
    <div>
      <label for="filter-status">Status</label>
      <select id="filter-status" name="status">
        <option value="" selected={filter.status === undefined}>Any status</option>
        {STATUSES.map((s) => (
          <option value={s} selected={s === filter.status} safe>
            {`${statusLabel[s]} (${found.facets.status[s]})`}
          </option>
        ))}
      </select>
    </div>
    <div>
      <label for="filter-origin">Origin</label>
      <select id="filter-origin" name="origin">
        <option value="" selected={filter.origin === undefined}>Any origin</option>
        {ORIGINS.map((o) => (
          <option value={o} selected={o === filter.origin} safe>{`${o} (${found.facets.origin[o]})`}</option>
        ))}
      </select>
    </div>
    <div>
      <label for="filter-q">Search</label>
      <input id="filter-q" name="q" type="text" maxlength="200" value={filter.q ?? ""} />
    </div>
    <button type="submit" class="quiet">Filter</button>
  </form>
)

const Row = ({ event }: { readonly event: IngestEventRow }) => (
  <tr>
    <td data-label="Event">
      <a href={`/console/events/${encodeURIComponent(event.id)}`} safe>{eventName(event)}</a>
    </td>
    <td data-label="Status" safe>{statusLabel[event.status]}</td>
    <td data-label="Origin" safe>{`${event.origin} (${event.input})`}</td>
    <td data-label="Jobs" safe>{String(event.jobs)}</td>
    <td data-label="Received" safe>{utcText(event.receivedAt)}</td>
  </tr>
)

const Paging = ({ filter, found }: { readonly filter: EventsFilter; readonly found: IngestEventPage }) => {
  const pages = Math.max(1, Math.ceil(found.total / found.perPage))
  return (
    <nav class="paging" aria-label="Pages">
      {filter.page > 1 ? <a href={eventsHref({ ...filter, page: filter.page - 1 })} rel="prev">Previous</a> : ""}
      <span safe>{`Page ${filter.page} of ${pages}`}</span>
      {filter.page < pages ? <a href={eventsHref({ ...filter, page: filter.page + 1 })} rel="next">Next</a> : ""}
    </nav>
  )
}

/** `/console/events`: the ingest log, newest first, filtered by status and origin, a page at a time. */
export const eventsPage = (
  { filter, found, person }: {
    readonly person: SignedIn
    readonly filter: EventsFilter
    readonly found: IngestEventPage
  }
) => (
  <Layout title="Events" person={person} current="/console/events">
    <h1>Events</h1>
    <p class="muted" safe>{`${found.total} of ${found.all} received events match.`}</p>
    <Filters filter={filter} found={found} />
    {found.events.length === 0 ? <p class="card">No event matches.</p> : (
      <table class="stack">
        <caption class="visually-hidden">Received events, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Origin</th>
            <th scope="col">Jobs</th>
            <th scope="col">Received</th>
          </tr>
        </thead>
        <tbody>
          {found.events.map((event) => <Row event={event} />)}
        </tbody>
      </table>
    )}
    <Paging filter={filter} found={found} />
  </Layout>
)
