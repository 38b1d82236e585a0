import type { SignedIn } from "../../people/People.js"
import type { ApprovalPage, ApprovalView } from "../../publishing/approvals/Approval.js"
import { Layout } from "../Layout.js"
import { ApprovalCard } from "./ApprovalCard.js"

export interface ApprovalsFilter {
  /** PENDING unless the person chose another state, or `ANY`. */
  readonly state: "PENDING" | "APPROVED" | "REJECTED" | "ANY"
  readonly channelId?: string | undefined
  readonly page: number
}

export interface ListProps {
  readonly person: SignedIn
  readonly canDecide: boolean
  readonly found: ApprovalPage
  readonly channels: ReadonlyArray<{ readonly id: string; readonly name: string }>
  readonly filter: ApprovalsFilter
  /** A line saying what the last action did. */
  readonly notice?: string | undefined
}

const STATES = [["PENDING", "Waiting"], ["APPROVED", "Approved"], ["REJECTED", "Rejected"], ["ANY", "Any"]] as const

/** The list's address for a filter: what the filter form, the paging links and the decisions come back to. */
export const listHref = (filter: ApprovalsFilter) => {
  const params = new URLSearchParams({ state: filter.state })
  if (filter.channelId !== undefined) params.set("channelId", filter.channelId)
  if (filter.page > 1) params.set("page", String(filter.page))
  return `/console/approvals?${params.toString()}`
}

const Filters = ({ channels, filter }: Pick<ListProps, "channels" | "filter">) => (
  <form method="get" action="/console/approvals" class="filters card" role="search" aria-label="Filter approvals">
    <div>
      <label for="filter-channel">Channel</label>
      <select id="filter-channel" name="channelId">
        <option value="" selected={filter.channelId === undefined}>All channels</option>
        {channels.map((channel) => (
          <option value={channel.id} selected={channel.id === filter.channelId} safe>{channel.name}</option>
        ))}
      </select>
    </div>
    <div>
      <label for="filter-state">State</label>
      <select id="filter-state" name="state">
        {STATES.map(([value, label]) => <option value={value} selected={value === filter.state}>{label}</option>)}
      </select>
    </div>
    <button type="submit" class="quiet">Filter</button>
  </form>
)

const Paging = ({ filter, found }: Pick<ListProps, "filter" | "found">) => {
  const pages = Math.max(1, Math.ceil(found.total / found.perPage))
  return (
    <nav class="paging" aria-label="Pages">
      {filter.page > 1 ? <a href={listHref({ ...filter, page: filter.page - 1 })} rel="prev">Previous</a> : ""}
      <span safe>{`Page ${filter.page} of ${pages}`}</span>
      {filter.page < pages ? <a href={listHref({ ...filter, page: filter.page + 1 })} rel="next">Next</a> : ""}
    </nav>
  )
}

const BulkForm = ({ back, waiting }: { readonly back: string; readonly waiting: ReadonlyArray<ApprovalView> }) =>
  waiting.length === 0 ? "" : (
    <form id="bulk" method="post" action="/console/approvals" class="card bulk">
      <input type="hidden" name="back" value={back} />
      <p class="muted">Tick Select on the posts below, then approve them together.</p>
      <label for="bulk-note">Note</label>
      <textarea id="bulk-note" name="note" maxlength="1000" rows="1"></textarea>
      <button type="submit">Approve selected</button>
    </form>
  )

/** `/console/approvals`: the posts waiting for a person (or those decided, by filter), a page at a time. */
export const approvalsPage = ({ canDecide, channels, filter, found, notice, person }: ListProps) => {
  const back = listHref(filter)
  const waiting = found.approvals.filter((approval) => approval.state === "PENDING")
  const counts = found.facets.state
  return (
    <Layout title="Approvals" person={person} current="/console/approvals">
      <h1>Approvals</h1>
      <p class="muted" safe>
        {`${counts["PENDING"] ?? 0} waiting, ${counts["APPROVED"] ?? 0} approved, ${counts["REJECTED"] ?? 0} rejected.`}
      </p>
      {notice === undefined ? "" : <p class="notice" role="status" safe>{notice}</p>}
      <Filters channels={channels} filter={filter} />
      {canDecide ? <BulkForm back={back} waiting={waiting} /> : ""}
      {found.approvals.length === 0
        ? <p class="card">Nothing here: no approval matches.</p>
        : found.approvals.map((approval) => <ApprovalCard approval={approval} canDecide={canDecide} back={back} />)}
      <Paging filter={filter} found={found} />
    </Layout>
  )
}

/** `/console/approvals/{id}`: one approval alone, the page the request emails link to. */
export const approvalPage = (
  props: {
    readonly person: SignedIn
    readonly canDecide: boolean
    readonly approval: ApprovalView
    readonly notice?: string | undefined
  }
) => (
  <Layout title="Approval" person={props.person} current="/console/approvals">
    <p>
      <a href="/console/approvals">All approvals</a>
    </p>
    {props.notice === undefined ? "" : <p class="notice" role="status" safe>{props.notice}</p>}
    <ApprovalCard
      approval={props.approval}
      canDecide={props.canDecide}
      back={`/console/approvals/${encodeURIComponent(props.approval.id)}`}
      alone
    />
  </Layout>
)
