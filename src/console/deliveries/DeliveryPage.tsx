import type { Delivery, DeliveryAttempt } from "../../delivery/log/Delivery.js"
import type { SignedIn } from "../../people/People.js"
import { Layout } from "../Layout.js"
import { at, canRedeliver, deliveryHref, lastAnswer, StateBadge, VIA_LABELS } from "./DeliveryBits.js"

export interface Notice {
  readonly text: string
  readonly failed: boolean
}

export interface DeliveryProps {
  readonly person: SignedIn
  readonly delivery: Delivery
  /** The person may redeliver: owner or Operations. Members see no button. */
  readonly canAct: boolean
  /** What the last Redeliver did. */
  readonly notice?: Notice | undefined
}

const Fact = ({ children, label }: { readonly label: string; readonly children: JSX.Element }) => (
  <div>
    <dt safe>{label}</dt>
    <dd>{children}</dd>
  </div>
)

const headerLines = (headers: Record<string, string> | null) =>
  Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`).join("\n")

/** The text that went out: a webhook's exact body, or an email's message (cut at 64 KB). */
const sentText = (d: Delivery) => d.via === "webhook" ? d.bodyBytes ?? "" : typeof d.body === "string" ? d.body : ""

const Attempt = ({ a }: { readonly a: DeliveryAttempt }) => (
  <li class={`attempt card${a.error === null ? "" : " failed"}`}>
    <h3 safe>{`Attempt ${a.attempt}${a.redelivery ? " (redelivery)" : ""}`}</h3>
    <dl class="facts">
      <Fact label="Started">
        <span safe>{at(a.startedAt)}</span>
      </Fact>
      <Fact label="Took">
        <span safe>{`${a.durationMs} ms`}</span>
      </Fact>
      <Fact label="Status code">
        <span safe>{a.statusCode === null ? "none" : String(a.statusCode)}</span>
      </Fact>
      <Fact label="Error">
        <span safe>{a.error ?? "none: accepted"}</span>
      </Fact>
    </dl>
    <h4>Answer (its first 2 KB)</h4>
    <pre class="sent"><code safe>{a.answer === null || a.answer === "" ? "(empty)" : a.answer}</code></pre>
    {a.headers === null ? "" : (
      <details>
        <summary>Headers this attempt was sent with</summary>
        <pre class="sent"><code safe>{headerLines(a.headers)}</code></pre>
      </details>
    )}
  </li>
)

const RedeliverForm = ({ delivery }: { readonly delivery: Delivery }) => (
  <form method="post" action={`${deliveryHref(delivery.id)}/redeliver`} class="card redeliver">
    <p>
      Sends this delivery again now, byte for byte the same, with the same signature, and shows how it went.
    </p>
    <button type="submit">Redeliver</button>
  </form>
)

/** `/console/deliveries/{id}`: one delivery whole, its attempts, what it sent, and `Redeliver` where allowed. */
export const deliveryPage = ({ canAct, delivery: d, notice, person }: DeliveryProps) => (
  <Layout title="Delivery" person={person} current="/console/deliveries">
    <p>
      <a href="/console/deliveries">All deliveries</a>
    </p>
    <h1 safe>{`${d.event} by ${VIA_LABELS[d.via].toLowerCase()}`}</h1>
    {notice === undefined
      ? ""
      : <p class={notice.failed ? "notice error" : "notice"} role="status" safe>{notice.text}</p>}
    <div class={`card delivery${d.state === "DEAD" ? " dead" : ""}`}>
      <dl class="facts">
        <Fact label="State">
          <StateBadge state={d.state} />
        </Fact>
        <Fact label="Id">
          <code safe>{d.id}</code>
        </Fact>
        <Fact label={d.via === "webhook" ? "Sent to" : "Recipients"}>
          <span safe>{d.via === "webhook" ? d.url ?? "no webhook address" : d.recipients.join(", ")}</span>
        </Fact>
        <Fact label="Posts">
          <span safe>
            {d.postIds.length === 0
              ? "none"
              : d.postIds.map((id, i) =>
                `${id} (${d.channelNames[i] ?? "?"})`
              ).join(", ")}
          </span>
        </Fact>
        <Fact label="Attempts">
          <span safe>{String(d.attempt)}</span>
        </Fact>
        <Fact label="Last answer">
          <span safe>{lastAnswer(d)}</span>
        </Fact>
        <Fact label="Made">
          <span safe>{at(d.createdAt)}</span>
        </Fact>
        <Fact label={d.deliveredAt !== null ? "Delivered" : "Next attempt"}>
          <span safe>{at(d.deliveredAt ?? d.nextAttemptAt) || "none"}</span>
        </Fact>
      </dl>
    </div>
    {canAct && canRedeliver(d.state) ? <RedeliverForm delivery={d} /> : ""}
    <section aria-labelledby="attempts">
      <h2 id="attempts">Attempts</h2>
      {d.attempts.length === 0
        ? <p class="muted">Not tried yet.</p>
        : <ol class="plain attempts">{d.attempts.map((a) => <Attempt a={a} />)}</ol>}
    </section>
    <section aria-labelledby="sent" class="card">
      <h2 id="sent">As sent</h2>
      <h3>Headers</h3>
      <pre class="sent"><code safe>{headerLines(d.headers) || "(none)"}</code></pre>
      <h3>Body</h3>
      {d.bodyTruncated ? <p class="muted">The first 64 KB of the message.</p> : ""}
      <pre class="sent"><code safe>{sentText(d) || "(not composed yet)"}</code></pre>
    </section>
  </Layout>
)
