import type { MemberRole } from "../../identity/Member.js"
import type { SignedIn } from "../../people/People.js"
import { roleLabel } from "../../people/Roles.js"
import type { QuotaOverview } from "../../renders/allowance/Quota.js"
import { Layout } from "../Layout.js"

/** What the workspace page shows, read through the services behind `/v1/renders/quota`. */
export interface WorkspaceFacts {
  readonly overview: QuotaOverview
  readonly nextPeriod: { readonly periodStart: string; readonly periodEnd: string; readonly extra: number }
  readonly people: ReadonlyArray<{ readonly email: string; readonly role: MemberRole }>
  readonly webhookUrl: string | null
}

/** A line above the page saying what the last action did, or why it was refused. */
export interface Outcome {
  readonly message: string
  readonly refused: boolean
}

export interface WorkspaceProps {
  readonly person: SignedIn
  readonly facts: WorkspaceFacts
  readonly outcome?: Outcome | undefined
}

const day = (iso: string) => iso.slice(0, 10)
const count = (n: number) => n.toLocaleString("en-US")
const mb = (n: number) => `${n.toLocaleString("en-US", { maximumFractionDigits: 2 })} MB`
const percent = (used: number, max: number) => max <= 0 ? 0 : Math.min(100, Math.round((used / max) * 100))

const Fact = ({ label, value }: { readonly label: string; readonly value: string }) => (
  <div>
    <dt safe>{label}</dt>
    <dd safe>{value}</dd>
  </div>
)

/** A native meter: screen readers announce its value; the text beside it says the same. */
const Share = (
  { label, max, unit = mb, used }: {
    readonly label: string
    readonly used: number
    readonly max: number
    readonly unit?: (n: number) => string
  }
) => (
  <div class="share">
    <span class="share-label" safe>{`${label}: ${unit(used)} of ${unit(max)} (${percent(used, max)}%)`}</span>
    <meter min="0" max={String(max)} value={String(Math.min(used, max))} aria-label={label}></meter>
  </div>
)

const Renders = ({ facts }: { readonly facts: WorkspaceFacts }) => {
  const { quota } = facts.overview
  return (
    <section class="card" aria-labelledby="renders-heading">
      <h2 id="renders-heading">Renders this month</h2>
      <dl class="facts">
        <Fact label="Allowance" value={`${count(quota.allowance)} videos a month`} />
        <Fact label="Extra renders" value={count(quota.extra)} />
        <Fact label="Used" value={count(quota.used)} />
        <Fact label="Left" value={count(quota.remaining)} />
        <Fact label="Period" value={`${day(quota.periodStart)} to ${day(quota.periodEnd)} (UTC)`} />
        <Fact label="Renews" value={`${day(quota.periodEnd)} 00:00 UTC`} />
        <Fact label="Kept for next month" value={`${count(facts.nextPeriod.extra)} extra renders`} />
      </dl>
      <Share label="Renders used" used={quota.used} max={quota.allowance + quota.extra} unit={count} />
    </section>
  )
}

const Storage = ({ facts }: { readonly facts: WorkspaceFacts }) => {
  const { storage } = facts.overview
  return (
    <section class="card" aria-labelledby="storage-heading">
      <h2 id="storage-heading">Storage</h2>
      <p safe>
        {`${mb(storage.used)} of ${mb(storage.max)} used. The media library may hold ${storage.mediaPercent}% and ` +
          `rendered clips the other ${100 - storage.mediaPercent}%; the oldest kept clips make room for new ones.`}
      </p>
      <Share label="Media library" used={storage.media.usedMb} max={storage.media.maxMb} />
      <Share label="Rendered clips" used={storage.clips.usedMb} max={storage.clips.maxMb} />
    </section>
  )
}

const People = ({ facts }: { readonly facts: WorkspaceFacts }) => {
  const { seats } = facts.overview
  return (
    <section class="card" aria-labelledby="people-heading">
      <h2 id="people-heading">People</h2>
      <p class="muted" safe>
        {seats.max === null ? `${seats.used} people.` : `${seats.used} of ${seats.max} seats taken.`}
      </p>
      <table>
        <caption class="visually-hidden">People of this workspace and their roles</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
          </tr>
        </thead>
        <tbody>
          {facts.people.map((p) => (
            <tr>
              <td class="wrap" safe>{p.email}</td>
              <td>{roleLabel(p.role)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted">The operator adds people and sets their roles.</p>
    </section>
  )
}

const Webhook = ({ url }: { readonly url: string | null }) => (
  <section class="card" aria-labelledby="webhook-heading">
    <h2 id="webhook-heading">Webhook address</h2>
    {url === null
      ? <p>No webhook address is set: posts are handed over by email only.</p>
      : (
        <p class="wrap">
          <code safe>{url}</code>
        </p>
      )}
    <p class="muted">Set by the operator, who also holds its signing secret; ask them to change it.</p>
  </section>
)

const ExtraForm = (
  props: {
    readonly action: "buy" | "keep" | "drop"
    readonly title: string
    readonly hint: string
    readonly all: boolean
  }
) => (
  <form method="post" action={`/console/workspace/${props.action}`} class="extra">
    <h3 safe>{props.title}</h3>
    <label for={`extra-${props.action}`} safe>{`Renders to ${props.action}`}</label>
    <input
      type="number"
      id={`extra-${props.action}`}
      name="renders"
      min="1"
      max="1000000"
      step="1"
      required={!props.all}
      aria-describedby={`extra-${props.action}-hint`}
    />
    <p id={`extra-${props.action}-hint`} class="muted" safe>{props.hint}</p>
    <button type="submit" class={props.action === "drop" ? "danger" : undefined} safe>{props.title}</button>
  </form>
)

const Extras = ({ facts }: { readonly facts: WorkspaceFacts }) => (
  <section class="card" aria-labelledby="extras-heading">
    <h2 id="extras-heading">Extra renders</h2>
    <p class="muted">
      Only the owner changes what the workspace pays for. The allowance is spent before extra renders.
    </p>
    <div class="extras">
      <ExtraForm
        action="buy"
        title="Buy"
        hint="Added to this month, up to the ceiling the operator sets."
        all={false}
      />
      <ExtraForm
        action="keep"
        title="Keep for next month"
        hint={`Unused extra renders carried into the month from ${day(facts.nextPeriod.periodStart)}; empty: all.`}
        all
      />
      <ExtraForm action="drop" title="Drop" hint="Unused extra renders given up; empty: all." all />
    </div>
  </section>
)

/** `/console/workspace`: the allowance, storage, people and webhook; the owner's buy, keep and drop. */
export const workspacePage = ({ facts, outcome, person }: WorkspaceProps) => (
  <Layout title="Workspace" person={person} current="/console/workspace">
    <h1 safe>{person.workspaceName}</h1>
    {outcome === undefined ?
      "" :
      (
        <p class={outcome.refused ? "notice error" : "notice"} role={outcome.refused ? "alert" : "status"} safe>
          {outcome.message}
        </p>
      )}
    <div class="workspace-grid">
      <Renders facts={facts} />
      <Storage facts={facts} />
      <People facts={facts} />
      <Webhook url={facts.webhookUrl} />
    </div>
    {person.role === "owner" ? <Extras facts={facts} /> : ""}
  </Layout>
)
