import { Schema } from "effect"

/**
 * A job's status (SPEC "Job stage and status"; docs/pipeline.md has the machine). The spec names the rendering,
 * approval, published and failed ones; SCHEDULED, PUBLISHING, REJECTED, CANCELLED and DELETED are this service's names
 * for the stages it leaves open. A job has one post, so a post's state is its job's status.
 */
export const JobStatus = Schema.Literal(
  "ACCEPTED",
  "AWAITING_RENDERING",
  "RENDERING",
  "DOWNLOADING",
  "RENDER_FAILED",
  "AWAITING_APPROVAL",
  "REJECTED",
  "SCHEDULED",
  "PUBLISHING",
  "PUBLISHED",
  "POST_FAILED",
  "CANCELLED",
  "DELETED",
  "DELETE_FAILED",
  "UPDATE_FAILED"
)
export type JobStatus = typeof JobStatus.Type

export const JobStage = Schema.Literal(
  "rendering",
  "approval",
  "scheduled",
  "publishing",
  "published",
  "failed",
  "rejected",
  "cancelled",
  "deleted"
)
export type JobStage = typeof JobStage.Type

export const stageOf: Record<JobStatus, JobStage> = {
  ACCEPTED: "rendering",
  AWAITING_RENDERING: "rendering",
  RENDERING: "rendering",
  DOWNLOADING: "rendering",
  RENDER_FAILED: "failed",
  AWAITING_APPROVAL: "approval",
  REJECTED: "rejected",
  SCHEDULED: "scheduled",
  PUBLISHING: "publishing",
  PUBLISHED: "published",
  POST_FAILED: "failed",
  CANCELLED: "cancelled",
  DELETED: "deleted",
  DELETE_FAILED: "failed",
  UPDATE_FAILED: "failed"
}

/** The statuses of a stage, in the machine's order. */
export const statusesOf = (stage: JobStage): ReadonlyArray<JobStatus> =>
  JobStatus.literals.filter((status) => stageOf[status] === stage)

/** The stages a job is still on its way through. */
const underway: ReadonlyArray<JobStage> = ["rendering", "approval", "scheduled", "publishing"]

/**
 * Nothing more will happen to a job in these (short of a repost, which makes a new job, or a change sent on to its
 * published post): every status past the stages underway.
 */
export const finished: ReadonlySet<JobStatus> = new Set(
  JobStatus.literals.filter((status) => !underway.includes(stageOf[status]))
)
