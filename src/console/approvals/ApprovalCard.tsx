import type { ApprovalView } from "../../publishing/approvals/Approval.js"

declare global {
  // @kitajs/html declares its element types in the global JSX namespace: only a namespace can extend them.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    // Standard attributes of <video> that @kitajs/html's element types leave out.
    interface HtmlVideoTag {
      preload?: undefined | "none" | "metadata" | "auto"
      playsinline?: undefined | boolean
    }
  }
}

/** What a page shows of an approval: the log's view, with the links made relative (the page's own origin). */
export interface CardProps {
  readonly approval: ApprovalView
  /** The person may decide: owner or Operations. Members see no buttons. */
  readonly canDecide: boolean
  /** Where a decision returns to (the list with its filters, or the approval's own page). */
  readonly back: string
  /** The heading level: h2 in a list, h1 alone. */
  readonly alone?: boolean | undefined
}

/** A signed link of this node as a path: the console is served from the same origin, which the CSP asks for. */
export const samePath = (url: string) => {
  const parsed = new URL(url, "http://localhost")
  return `${parsed.pathname}${parsed.search}`
}

export const when = (iso: string | null) => iso === null ? "not set" : `${iso.slice(0, 16).replace("T", " ")} UTC`

export const stateLabel = (state: ApprovalView["state"]) =>
  state === "PENDING" ? "Waiting" : state === "APPROVED" ? "Approved" : "Rejected"

const titleOf = (approval: ApprovalView) => {
  const title = approval.posts[0]?.title ?? ""
  return title === "" ? "(untitled post)" : title
}

const Fact = ({ label, value }: { readonly label: string; readonly value: string }) => (
  <div>
    <dt safe>{label}</dt>
    <dd safe>{value}</dd>
  </div>
)

const Decided = ({ approval }: { readonly approval: ApprovalView }) => (
  <p class={`decision ${approval.state.toLowerCase()}`} role="status">
    <strong>{stateLabel(approval.state)}</strong>
    <span safe>{` by ${approval.decidedBy ?? "someone unrecorded"} on ${when(approval.decidedAt)}`}</span>
    {approval.note === null ? "" : (
      <>
        <br />
        <span>Note:</span> <q safe>{approval.note}</q>
      </>
    )}
  </p>
)

const DecideForm = ({ approval, back }: { readonly approval: ApprovalView; readonly back: string }) => (
  <form method="post" action={`/console/approvals/${encodeURIComponent(approval.id)}`} class="decide">
    <input type="hidden" name="back" value={back} />
    <label for={`note-${approval.id}`}>Note</label>
    <textarea id={`note-${approval.id}`} name="note" maxlength="1000" rows="2"></textarea>
    <div class="actions">
      <button type="submit" name="state" value="APPROVED">Approve</button>
      <button type="submit" name="state" value="REJECTED" class="danger">Reject</button>
    </div>
  </form>
)

/** One waiting (or decided) post: its video playing in the page, its facts, and the decision or the buttons. */
export const ApprovalCard = ({ alone, approval, back, canDecide }: CardProps) => {
  const post = approval.posts[0]
  const asset = post?.assets[0]
  const titleId = `title-${approval.id}`
  const title = titleOf(approval)
  const pending = approval.state === "PENDING"
  return (
    <article class="card approval" aria-labelledby={titleId}>
      {alone === true
        ? <h1 id={titleId} safe>{title}</h1>
        : (
          <h2 id={titleId}>
            <a href={`/console/approvals/${encodeURIComponent(approval.id)}`} safe>{title}</a>
          </h2>
        )}
      <div class="approval-body">
        <div class="media">
          {asset === undefined
            ? <p class="muted">The video is no longer stored.</p>
            : (
              <video
                controls
                preload="metadata"
                playsinline
                src={samePath(asset.url)}
                poster={`/console/approvals/${encodeURIComponent(approval.id)}/still`}
                aria-label={`Video: ${title}`}
              >
              </video>
            )}
        </div>
        <dl class="facts">
          <Fact label="Channel" value={approval.channelName} />
          <Fact label="Platform" value={post?.platform ?? ""} />
          <Fact label="Surface" value={post?.surfaceLabel ?? ""} />
          <Fact label="Language" value={post?.locale ?? ""} />
          <Fact label="Goes out" value={when(post?.scheduledFor ?? null)} />
          <Fact label="Caption" value={post?.caption ?? ""} />
          <Fact label="Hashtags" value={(post?.hashtags ?? []).map((tag) => `#${tag}`).join(" ") || "none"} />
          <Fact label="Asked" value={when(approval.requestedAt)} />
          <Fact label="State" value={stateLabel(approval.state)} />
        </dl>
      </div>
      {pending ? "" : <Decided approval={approval} />}
      {pending && canDecide
        ? (
          <>
            {alone === true ? "" : (
              <p class="select">
                <input type="checkbox" form="bulk" name="ids" value={approval.id} id={`select-${approval.id}`} />
                <label for={`select-${approval.id}`}>
                  Select <span class="visually-hidden" safe>{title}</span>
                </label>
              </p>
            )}
            <DecideForm approval={approval} back={back} />
          </>
        )
        : ""}
    </article>
  )
}
