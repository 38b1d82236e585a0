import type { SignedIn } from "../../people/People.js"
import type { ExportStatus } from "../../renders/RenderJob.js"
import { samePath } from "../approvals/ApprovalCard.js"
import { Layout } from "../Layout.js"
import { statusLabel, when } from "./ExportsPage.js"

/** One export as its page shows it: what it is, where it stands, and its video once there is one. */
export interface ExportState {
  readonly jobId: string
  readonly name: string
  readonly ratio: string
  readonly createdAt: string
  readonly createdBy: string
  readonly status: ExportStatus
  readonly progress: number
  readonly ahead: number
  readonly error: string | null
  readonly kept: boolean
  readonly keptNote: string | null
  /** The signed link of the finished video (same origin); none while it renders or when its file is gone. */
  readonly videoUrl?: string | undefined
  /** Why a finished export has no video to show. */
  readonly missing?: string | undefined
}

const inFlight = (status: ExportStatus) => status === "queued" || status === "rendering"

const pathOf = (jobId: string) => `/console/exports/${encodeURIComponent(jobId)}`

const Waiting = ({ state }: { readonly state: ExportState }) => (
  <>
    <p>
      <strong>{statusLabel(state.status)}</strong>
      <span safe>
        {state.status === "queued"
          ? `: ${state.ahead} render${state.ahead === 1 ? "" : "s"} ahead in the queue.`
          : `: ${Math.round(state.progress)}% drawn.`}
      </span>
    </p>
    <progress max="100" value={String(Math.round(state.progress))} aria-label="Progress" safe>
      {`${Math.round(state.progress)}%`}
    </progress>
    <p class="muted">
      This updates by itself. <a href={pathOf(state.jobId)}>Refresh</a>
    </p>
  </>
)

const Finished = ({ state }: { readonly state: ExportState }) =>
  state.videoUrl === undefined
    ? <p safe>{state.missing ?? "The video is gone."}</p>
    : (
      <>
        <video
          controls
          preload="metadata"
          playsinline
          src={samePath(state.videoUrl)}
          aria-label={`Video: ${state.name}`}
        >
        </video>
        <p class="actions">
          <a class="button" href={samePath(state.videoUrl)} download="">Download</a>
        </p>
        <p class="muted" safe>
          {state.kept
            ? "Kept with the workspace's clips until room is needed."
            : `Not kept${state.keptNote === null ? "" : ` (${state.keptNote})`}: the file is deleted two hours after ` +
              "it finished."}
        </p>
      </>
    )

/**
 * Where the export stands. While it waits or renders the block asks for itself again every second (htmx) and replaces
 * itself; the answer for a finished export asks no more.
 */
export const ExportProgress = ({ state }: { readonly state: ExportState }) => (
  <div
    id="export-progress"
    class="export-progress"
    hx-get={inFlight(state.status) ? `${pathOf(state.jobId)}/progress` : undefined}
    hx-trigger={inFlight(state.status) ? "every 1s" : undefined}
    hx-swap={inFlight(state.status) ? "outerHTML" : undefined}
  >
    {inFlight(state.status)
      ? <Waiting state={state} />
      : state.status === "succeeded"
      ? <Finished state={state} />
      : (
        <p>
          <strong>{statusLabel(state.status)}</strong>
          <span safe>{state.error === null ? "." : `: ${state.error}`}</span>
        </p>
      )}
  </div>
)

/** `/console/exports/{id}`: one export, watched until done, then played and offered for download. */
export const exportPage = ({ person, state }: { readonly person: SignedIn; readonly state: ExportState }) => (
  <Layout title="Export" person={person} current="/console/exports">
    <p>
      <a href="/console/exports">All exports</a>
    </p>
    <article class="card export" aria-labelledby="export-title">
      <h1 id="export-title" safe>{state.name}</h1>
      <dl class="facts">
        <div>
          <dt>Shape</dt>
          <dd safe>{state.ratio}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd safe>{`${when(state.createdAt)} by ${state.createdBy}`}</dd>
        </div>
      </dl>
      <section aria-live="polite" aria-label="Progress of the export">
        <ExportProgress state={state} />
      </section>
    </article>
  </Layout>
)
