import type { PipelineEntry, StatusCounts } from "./PipelineAnswers.js"

/** A job on its way, as the pipeline lists it, with the times it may be waiting for. */
export interface InFlightEntry extends PipelineEntry {
  /** When its post goes out (the post's time once it exists, else the event's publish time); null: at once. */
  readonly scheduledFor: string | null
  /** While its hand-over is being retried: when the next attempt is made. */
  readonly nextAttemptAt: string | null
}

/** The console's live pipeline: every status counted, and one page of the jobs in flight, newest first. */
export interface InFlightPage {
  readonly at: string
  readonly pollMs: number
  readonly counts: StatusCounts
  /** Jobs in the rendering, approval, scheduled or publishing stage. */
  readonly inFlight: number
  readonly jobs: ReadonlyArray<InFlightEntry>
  readonly page: number
  readonly hasNext: boolean
}
