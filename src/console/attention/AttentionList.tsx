import type { Children } from "@kitajs/html"
import { when } from "../approvals/ApprovalCard.js"
import { StateBadge } from "../deliveries/DeliveryBits.js"
import { type Attention, FAILED_WITHIN_DAYS } from "./AttentionQuery.js"

const iso = (date: Date) => date.toISOString()

const Section = (
  props: {
    readonly id: string
    readonly title: string
    readonly count: number
    readonly none: string
    readonly children?: Children
  }
) => (
  <section class="card attention" aria-labelledby={props.id}>
    <h2 id={props.id}>
      <span safe>{props.title}</span> <span class="count" safe>{String(props.count)}</span>
    </h2>
    {props.count === 0 ? <p class="muted" safe>{props.none}</p> : props.children}
  </section>
)

/**
 * `/console`'s "what needs attention now": the newest few of each kind, and how many there are, each linking to the
 * console page that tells its story (a failed job's own page; the pipeline counts the failed ones).
 */
export const AttentionList = ({ attention }: { readonly attention: Attention }) => (
  <>
    <Section
      id="waiting"
      title="Waiting for approval"
      count={attention.pendingApprovals}
      none="No post waits for a decision."
    >
      <ul class="plain">
        {attention.approvals.map((a) => (
          <li>
            <a href={`/console/approvals/${encodeURIComponent(a.id)}`} safe>{a.title ?? "(untitled post)"}</a>
            <span class="muted" safe>{` · ${a.channelName} · asked ${when(iso(a.requestedAt))}`}</span>
          </li>
        ))}
      </ul>
      <p>
        <a href="/console/approvals?state=PENDING" safe>{`All ${attention.pendingApprovals} waiting`}</a>
      </p>
    </Section>
    <Section id="dead" title="Dead deliveries" count={attention.deadDeliveries} none="Every hand-over got through.">
      <ul class="plain dead-deliveries">
        {attention.deliveries.map((d) => (
          <li>
            <StateBadge state="DEAD" />{" "}
            <a href={`/console/deliveries/${encodeURIComponent(d.id)}`} safe>{`${d.event} by ${d.via}`}</a>
            <span class="muted" safe>{` · ${d.lastError ?? "no answer"} · ${when(iso(d.updatedAt))}`}</span>
          </li>
        ))}
      </ul>
      <p>
        <a href="/console/deliveries?state=DEAD" safe>{`All ${attention.deadDeliveries} dead deliveries`}</a>
      </p>
    </Section>
    <Section
      id="failed"
      title={`Jobs failed in ${FAILED_WITHIN_DAYS} days`}
      count={attention.failedJobs}
      none="No job failed lately."
    >
      <ul class="plain">
        {attention.jobs.map((j) => (
          <li>
            <a href={`/console/jobs/${encodeURIComponent(j.id)}`} safe>{`${j.status} · ${j.channelName}`}</a>
            <span class="muted" safe>{` · ${j.error ?? "no reason recorded"} · ${when(iso(j.updatedAt))}`}</span>
          </li>
        ))}
      </ul>
      <p>
        <a href="/console/pipeline">The pipeline</a>, every stage with its jobs
      </p>
    </Section>
  </>
)
