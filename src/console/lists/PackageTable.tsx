import type { Package } from "../../queues/PostList.js"
import { dateAt, dateText, timeAt } from "../calendar/ZoneTime.js"
import { stateText } from "../ConsoleText.js"

/** "2026-12-07 14:05 Europe/Berlin": an instant as the person's clocks show it. */
export const zonedText = (iso: string, zone: string) => {
  const at = Date.parse(iso)
  return `${dateText(dateAt(at, zone))} ${timeAt(at, zone)} ${zone}`
}

/** What became of a fired post's jobs, one count per kind that has any. */
export const outcomeText = (pkg: Package) => {
  if (pkg.outcome === null) return pkg.error ?? (pkg.state === "SCHEDULED" ? "Not fired yet" : "—")
  const o = pkg.outcome
  const parts = [
    [o.published, "published"],
    [o.awaitingApproval, "awaiting approval"],
    [o.rendering, "rendering"],
    [o.renderFailed, "render failed"],
    [o.publishFailed, "hand-over failed"]
  ].filter(([n]) => (n as number) > 0).map(([n, what]) => `${n} ${what}`)
  const channels = `${o.channels} ${o.channels === 1 ? "channel" : "channels"}`
  return parts.length === 0 ? channels : `${channels}: ${parts.join(", ")}`
}

export interface PackageTableProps {
  readonly queueId: string
  readonly packages: ReadonlyArray<Package>
  readonly zone: string
  /** Owner and Operations get `Cancel` on scheduled posts. */
  readonly canAct: boolean
}

/** A list's posts: title, state, when they are due, what they became; `Cancel` for a scheduled one. */
export const PackageTable = ({ canAct, packages, queueId, zone }: PackageTableProps) =>
  packages.length === 0 ? <p class="muted">No posts in this list.</p> : (
    <table class="stack">
      <thead>
        <tr>
          <th scope="col">Post</th>
          <th scope="col">State</th>
          <th scope="col">Due</th>
          <th scope="col">Outcome</th>
          {canAct
            ? (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            )
            : ""}
        </tr>
      </thead>
      <tbody>
        {packages.map((pkg) => (
          <tr>
            <td data-label="Post" safe>{pkg.title}</td>
            <td data-label="State" safe>{stateText(pkg.state)}</td>
            <td data-label="Due" safe>{zonedText(pkg.scheduledFor, zone)}</td>
            <td data-label="Outcome">
              {pkg.ingestEventId === null ?
                <span safe>{outcomeText(pkg)}</span> :
                <a href={`/console/events/${encodeURIComponent(pkg.ingestEventId)}`} safe>{outcomeText(pkg)}</a>}
            </td>
            {canAct
              ? (
                <td data-label="Actions">
                  {pkg.state === "SCHEDULED"
                    ? (
                      <form
                        method="post"
                        action={`/console/lists/${encodeURIComponent(queueId)}/packages/${
                          encodeURIComponent(pkg.id)
                        }/cancel`}
                      >
                        <button type="submit" class="danger">
                          Cancel <span class="visually-hidden" safe>{pkg.title}</span>
                        </button>
                      </form>
                    )
                    : ""}
                </td>
              )
              : ""}
          </tr>
        ))}
      </tbody>
    </table>
  )
