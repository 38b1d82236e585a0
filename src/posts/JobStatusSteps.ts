import type { JobStatus } from "./JobStatus.js"

/**
 * The job state machine: every move a job's status (and its post's state, which is always its job's status) may
 * make, as named steps. docs/pipeline.md ("The steps") has the same table, and
 * test/posts/job-status-steps.test.ts holds the two equal and checks the machine against the statuses (these
 * are the status steps, not the handlers the Channel entity runs). A status write names its step (JobRepo.move,
 * DueRepo.markPublishing, PostOutcomes), which gives both the new status and the statuses it may come from, so a
 * move that is not in this table cannot be written without adding it here.
 *
 * Who writes which rows:
 * - `jobs`: created `ACCEPTED` by ingest (`IngestLedger`, with its event) and by the job's `Channel` entity (a
 *   repost); moved by the `Channel` entity up to `SCHEDULED` and by a cancel; moved by the event's `HandOver` entity
 *   from `SCHEDULED` on. The claim columns are the dispatchers' (`dispatched_at`: JobDispatcher,
 *   `handover_claimed_at`: HandOverDispatcher) and `swept_at` the render-end sweep's (UnheardRenderEnds); none of
 *   those touch a status.
 * - `posts`: made by the `Channel` entity when the video is ready; their state moves with their job's in the same
 *   statement; the `HandOver` entity writes what the receiver answered (platform id, permalink) and an update's text,
 *   and a receipt (`/v1/receipts/{postId}`, ReceiptsRepo) the platform id and permalink it reports.
 * - `approvals`: made and decided by the `Channel` entity.
 */

/** Who may take a step: ingest (creating), or the entity that owns the job's rows at that stage. */
export type JobMover = "ingest" | "Channel" | "HandOver"

export interface StatusStep {
  /** The statuses the job may be in; none: the step makes a new job. */
  readonly from: ReadonlyArray<JobStatus>
  readonly to: JobStatus
  readonly by: JobMover
}

const step = <const From extends ReadonlyArray<JobStatus>, const To extends JobStatus>(
  from: From,
  to: To,
  by: JobMover
) => ({ from, to, by })

export const statusSteps = {
  land: step([], "ACCEPTED", "ingest"),
  repost: step([], "ACCEPTED", "Channel"),
  start: step(["ACCEPTED"], "AWAITING_RENDERING", "Channel"),
  refuse: step(["ACCEPTED"], "RENDER_FAILED", "Channel"),
  renderFailed: step(["AWAITING_RENDERING"], "RENDER_FAILED", "Channel"),
  awaitApproval: step(["AWAITING_RENDERING"], "AWAITING_APPROVAL", "Channel"),
  schedule: step(["AWAITING_RENDERING"], "SCHEDULED", "Channel"),
  approve: step(["AWAITING_APPROVAL"], "SCHEDULED", "Channel"),
  reject: step(["AWAITING_APPROVAL"], "REJECTED", "Channel"),
  cancel: step(["ACCEPTED", "AWAITING_RENDERING", "AWAITING_APPROVAL", "SCHEDULED"], "CANCELLED", "Channel"),
  handOver: step(["SCHEDULED"], "PUBLISHING", "HandOver"),
  published: step(["PUBLISHING", "POST_FAILED"], "PUBLISHED", "HandOver"),
  publishFailed: step(["PUBLISHING"], "POST_FAILED", "HandOver"),
  updated: step(["UPDATE_FAILED"], "PUBLISHED", "HandOver"),
  updateFailed: step(["PUBLISHED", "UPDATE_FAILED"], "UPDATE_FAILED", "HandOver"),
  deleted: step(["PUBLISHED", "UPDATE_FAILED", "DELETE_FAILED"], "DELETED", "HandOver"),
  deleteFailed: step(["PUBLISHED", "UPDATE_FAILED", "DELETE_FAILED"], "DELETE_FAILED", "HandOver")
} as const satisfies Record<string, StatusStep>

export type StatusStepName = keyof typeof statusSteps
export const statusStepNames = Object.keys(statusSteps) as [StatusStepName, ...Array<StatusStepName>]

/** Whether a job in `status` may take the step. */
export const isFrom = (name: StatusStepName, status: JobStatus): boolean =>
  (statusSteps[name].from as ReadonlyArray<JobStatus>).includes(status)

/** Shown in views from the render job while a job is AWAITING_RENDERING; never stored, so no step reaches them. */
export const derivedStatuses: ReadonlyArray<JobStatus> = ["RENDERING", "DOWNLOADING"]

/** A job whose post went out and is still up can be changed (a failed change can be tried again). */
export const updatableFrom: ReadonlyArray<JobStatus> = statusSteps.updateFailed.from
/** …removed from its platform (a failed removal can be tried again), or posted again as a new job. */
export const deletableFrom: ReadonlyArray<JobStatus> = statusSteps.deleted.from
export const repostableFrom: ReadonlyArray<JobStatus> = deletableFrom
