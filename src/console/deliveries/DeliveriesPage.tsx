import type { DeliveryRow } from "../../delivery/log/Delivery.js"
import type { SignedIn } from "../../people/People.js"
import { Layout } from "../Layout.js"
import { at, deliveryHref, EVENTS, lastAnswer, STATE_LABELS, StateBadge, VIA_LABELS } from "./DeliveryBits.js"

export interface DeliveriesFilter {
  readonly state?: DeliveryRow["state"] | undefined
  readonly via?: DeliveryRow["via"] | undefined
  readonly event?: DeliveryRow["event"] | undefined
  readonly channelId?: string | undefined
  readonly page: number
}

export interface DeliveriesFound {
  readonly deliveries: ReadonlyArray<DeliveryRow>
  readonly hasNext: boolean
  /** How many of the workspace's deliveries are dead, whatever the filter. */
  readonly dead: number
}

export interface ListProps {
  readonly person: SignedIn
  readonly channels: ReadonlyArray<{ readonly id: string; readonly name: string }>
  readonly filter: DeliveriesFilter
  readonly found: DeliveriesFound
  /** Why the filter was not understood (the page then lists nothing and answers 400). */
  readonly problem?: string | undefined
}

/** The list's address for a filter: what the filter form and the paging links lead to. */
export const listHref = (filter: DeliveriesFilter) => {
  const params = new URLSearchParams()
  for (const key of ["state", "via", "event", "channelId"] as const) {
    const value = filter[key]
    if (value !== undefined) params.set(key, value)
  }
  if (filter.page > 1) params.set("page", String(filter.page))
  const query = params.toString()
  return query === "" ? "/console/deliveries" : `/console/deliveries?${query}`
}

const Choice = (
  props: {
    readonly id: string
    readonly name: string
    readonly label: string
    readonly all: string
    readonly chosen: string | undefined
    readonly options: ReadonlyArray<readonly [string, string]>
  }
) => (
  <div>
    <label for={props.id} safe>{props.label}</label>
    <select id={props.id} name={props.name}>
      <option value="" selected={props.chosen === undefined} safe>{props.all}</option>
      {props.options.map(([value, label]) => (
        <option value={value} selected={value === props.chosen} safe>{label}</option>
      ))}
    </select>
  </div>
)

const Filters = ({ channels, filter }: Pick<ListProps, "channels" | "filter">) => (
  <form method="get" action="/console/deliveries" class="filters card" role="search" aria-label="Filter deliveries">
    <Choice
      id="filter-state"
      name="state"
      label="State"
      all="Any state"
      chosen={filter.state}
      options={Object.entries(STATE_LABELS)}
    />
    <Choice
      id="filter-via"
      name="via"
      label="Via"
      all="Webhook and email"
      chosen={filter.via}
      options={Object.entries(VIA_LABELS)}
    />
    <Choice
      id="filter-event"
      name="event"
      label="Event type"
      all="Any event"
      chosen={filter.event}
      options={EVENTS.map((e) =>
        [e, e] as const
      )}
    />
    <Choice
      id="filter-channel"
      name="channelId"
      label="Channel"
      all="All channels"
      chosen={filter.channelId}
      options={channels.map((c) =>
        [c.id, c.name] as const
      )}
    />
    <button type="submit" class="quiet">Filter</button>
  </form>
)

const Paging = ({ filter, found }: Pick<ListProps, "filter" | "found">) => (
  <nav class="paging" aria-label="Pages">
    {filter.page > 1 ? <a href={listHref({ ...filter, page: filter.page - 1 })} rel="prev">Previous</a> : ""}
    <span safe>{`Page ${filter.page}`}</span>
    {found.hasNext ? <a href={listHref({ ...filter, page: filter.page + 1 })} rel="next">Next</a> : ""}
  </nav>
)

const Row = ({ d }: { readonly d: DeliveryRow }) => (
  <tr class={d.state === "DEAD" ? "dead" : undefined}>
    <td data-label="State">
      <StateBadge state={d.state} />
    </td>
    <td data-label="Delivery">
      <a href={deliveryHref(d.id)}>
        <span safe>{`${d.event} by ${VIA_LABELS[d.via].toLowerCase()}`}</span>
        <span class="visually-hidden" safe>{`, made ${at(d.createdAt)}`}</span>
      </a>
    </td>
    <td data-label="Channel" safe>{d.channelNames.length === 0 ? "none" : d.channelNames.join(", ")}</td>
    <td data-label="Attempts" safe>{String(d.attempt)}</td>
    <td data-label="Last answer" safe>{lastAnswer(d)}</td>
    <td data-label="Made" safe>{at(d.createdAt)}</td>
    <td data-label="Delivered or next" safe>
      {d.deliveredAt !== null ? at(d.deliveredAt) : d.nextAttemptAt !== null ? `next ${at(d.nextAttemptAt)}` : ""}
    </td>
  </tr>
)

/** `/console/deliveries`: the log of webhook calls and emails, newest first, 50 a page, dead ones marked. */
export const deliveriesPage = ({ channels, filter, found, person, problem }: ListProps) => (
  <Layout title="Deliveries" person={person} current="/console/deliveries">
    <h1>Deliveries</h1>
    {found.dead === 0
      ? <p class="muted">No delivery is dead.</p>
      : (
        <p>
          <StateBadge state="DEAD" />{" "}
          <a href="/console/deliveries?state=DEAD" safe>
            {`${found.dead} ${found.dead === 1 ? "delivery is" : "deliveries are"} dead: every attempt failed`}
          </a>
        </p>
      )}
    {problem === undefined ? "" : <p class="notice error" role="alert" safe>{problem}</p>}
    <Filters channels={channels} filter={filter} />
    {found.deliveries.length === 0
      ? <p class="card">Nothing here: no delivery matches.</p>
      : (
        <table class="deliveries">
          <caption class="visually-hidden">Deliveries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">Delivery</th>
              <th scope="col">Channel</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              <th scope="col">Made</th>
              <th scope="col">Delivered or next</th>
            </tr>
          </thead>
          <tbody>
            {found.deliveries.map((d) => <Row d={d} />)}
          </tbody>
        </table>
      )}
    <Paging filter={filter} found={found} />
  </Layout>
)
