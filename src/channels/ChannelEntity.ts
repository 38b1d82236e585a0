import { Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { PrimaryKey, Schema } from "effect"
import { durableEntity } from "../domain/EntityCalls.js"
import { Conflict, InvalidStateTransition, NotFound, SchemaValidation, UnknownTemplate } from "../domain/Errors.js"
import { WorkspaceId } from "../domain/Principal.js"
import { Cancelled, Decided, Queued, Reposted } from "../posts/JobAnswers.js"
import { PostChanges } from "../posts/PostChanges.js"
import { RenderJobState } from "../renders/RenderJob.js"
import { UpdateChannelBody } from "./Channel.js"
import { ChannelConfig } from "./ChannelRecord.js"
import { ChangeSubscriptionBody } from "./Subscription.js"
import { NewSubscription } from "./SubscriptionRecord.js"

/**
 * Every state change carries the request id as its primary key, so a retried request is applied once. A change aimed
 * at one of the channel's subscriptions, jobs or approvals keys its target too: a client reusing an `x-request-id`
 * on another target gets that target changed, not the first one's stored answer.
 */
export class CreateChannel extends Schema.Class<CreateChannel>("Channel/Create")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  config: ChannelConfig
}) {
  [PrimaryKey.symbol]() {
    return `create:${this.requestId}`
  }
}

/**
 * The change as sent: the entity lays it over the stored row and checks the result, so two changes to one channel
 * compose. `brandId` is a live brand of the workspace (checked by the caller); `hasWebhook` is the workspace's.
 */
export class UpdateChannel extends Schema.Class<UpdateChannel>("Channel/Update")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  changes: UpdateChannelBody,
  hasWebhook: Schema.Boolean
}) {
  [PrimaryKey.symbol]() {
    return `update:${this.requestId}`
  }
}

export class DeleteChannel extends Schema.Class<DeleteChannel>("Channel/Delete")({
  requestId: Schema.String,
  workspaceId: WorkspaceId
}) {
  [PrimaryKey.symbol]() {
    return `delete:${this.requestId}`
  }
}

/** A subscription checked by the service (the input exists and is offered; the pins have builds). */
export class Subscribe extends Schema.Class<Subscribe>("Channel/Subscribe")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  subscription: NewSubscription
}) {
  [PrimaryKey.symbol]() {
    return `subscribe:${this.requestId}`
  }
}

/** The change as sent: laid over the stored pins and switch, and checked against the input's template. */
export class ChangeSubscription extends Schema.Class<ChangeSubscription>("Channel/ChangeSubscription")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  subscriptionId: Schema.String,
  changes: ChangeSubscriptionBody
}) {
  [PrimaryKey.symbol]() {
    return `change-subscription:${this.requestId}:${this.subscriptionId}`
  }
}

export class Unsubscribe extends Schema.Class<Unsubscribe>("Channel/Unsubscribe")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  subscriptionId: Schema.String
}) {
  [PrimaryKey.symbol]() {
    return `unsubscribe:${this.requestId}:${this.subscriptionId}`
  }
}

/** The stream's template changed (sent once per listening channel by the stream update that changed it). */
export class StreamTemplateChanged extends Schema.Class<StreamTemplateChanged>("Channel/StreamTemplateChanged")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  streamId: Schema.String,
  templateId: Schema.String
}) {
  [PrimaryKey.symbol]() {
    return `stream-template:${this.requestId}:${this.streamId}`
  }
}

/**
 * A job of this channel waiting to start, sent by the dispatcher; `claim` (when it was handed over) makes a later
 * hand-over of a job still waiting a new message rather than a repeat of one already answered.
 */
export class StartJob extends Schema.Class<StartJob>("Channel/StartJob")({
  workspaceId: WorkspaceId,
  jobId: Schema.String,
  claim: Schema.String
}) {
  [PrimaryKey.symbol]() {
    return `start-job:${this.jobId}:${this.claim}`
  }
}

/**
 * The render a job of this channel waits on ended (sent by the render's end, at least once). `round` is set when a
 * sweep tells a job again (UnheardRenderEnds.ts): a new message, not the first one's answer.
 */
export class JobRenderEnded extends Schema.Class<JobRenderEnded>("Channel/JobRenderEnded")({
  workspaceId: WorkspaceId,
  jobId: Schema.String,
  renderJobId: Schema.String,
  state: RenderJobState,
  error: Schema.NullOr(Schema.String),
  round: Schema.optional(Schema.Number)
}) {
  [PrimaryKey.symbol]() {
    const first = `render-ended:${this.jobId}:${this.renderJobId}`
    return this.round === undefined ? first : `${first}:${this.round}`
  }
}

/** A person's decision on a job's approval (the request id keys it: a retried decision is applied once). */
export class DecideApproval extends Schema.Class<DecideApproval>("Channel/DecideApproval")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  approvalId: Schema.String,
  state: Schema.Literal("APPROVED", "REJECTED"),
  note: Schema.NullOr(Schema.String),
  /** `user:<email>` or `apikey:<id>`; messages persisted before it was carried decode as unknown. */
  decidedBy: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
}) {
  [PrimaryKey.symbol]() {
    return `decide:${this.requestId}:${this.approvalId}`
  }
}

export class CancelJob extends Schema.Class<CancelJob>("Channel/CancelJob")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  jobId: Schema.String
}) {
  [PrimaryKey.symbol]() {
    return `cancel-job:${this.requestId}:${this.jobId}`
  }
}

/** A change to a job's published post, sent on to its receiver as a signed `post.update`. */
export class UpdateJob extends Schema.Class<UpdateJob>("Channel/UpdateJob")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  jobId: Schema.String,
  changes: PostChanges
}) {
  [PrimaryKey.symbol]() {
    return `update-job:${this.requestId}:${this.jobId}`
  }
}

/** Asks the receiver to remove a job's published post (`post.delete`). */
export class DeleteJob extends Schema.Class<DeleteJob>("Channel/DeleteJob")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  jobId: Schema.String
}) {
  [PrimaryKey.symbol]() {
    return `delete-job:${this.requestId}:${this.jobId}`
  }
}

/** A new job repeating a published one on the same channel. */
export class RepostJob extends Schema.Class<RepostJob>("Channel/RepostJob")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  jobId: Schema.String
}) {
  [PrimaryKey.symbol]() {
    return `repost-job:${this.requestId}:${this.jobId}`
  }
}

/**
 * One entity per channel id (ULIDs, global), the only writer of its `channels` row and its subscriptions. Of its jobs
 * it takes the steps up to SCHEDULED and the cancel (making their posts and approvals); the event's HandOver entity
 * takes the steps from SCHEDULED on. src/posts/JobStatusSteps.ts has the steps and who writes which rows.
 */
export const ChannelEntity = durableEntity(Entity.make("Channel", [
  Rpc.make("Create", { payload: CreateChannel, error: Schema.Union(Conflict, NotFound) }),
  Rpc.make("Update", { payload: UpdateChannel, error: Schema.Union(NotFound, Conflict, SchemaValidation) }),
  Rpc.make("Delete", { payload: DeleteChannel, success: Schema.Struct({ cancelled: Schema.Number }), error: NotFound }),
  Rpc.make("Subscribe", { payload: Subscribe, error: Schema.Union(NotFound, Conflict) }),
  Rpc.make("ChangeSubscription", {
    payload: ChangeSubscription,
    error: Schema.Union(NotFound, SchemaValidation, UnknownTemplate)
  }),
  Rpc.make("Unsubscribe", { payload: Unsubscribe, error: NotFound }),
  Rpc.make("StreamTemplateChanged", { payload: StreamTemplateChanged, success: Schema.Number }),
  // The dispatcher waits for a start only so long (JobDispatcher.ts); giving up leaves the start running.
  Rpc.make("StartJob", { payload: StartJob }),
  Rpc.make("JobRenderEnded", { payload: JobRenderEnded }),
  Rpc.make("DecideApproval", {
    payload: DecideApproval,
    success: Decided,
    error: Schema.Union(NotFound, InvalidStateTransition)
  }),
  Rpc.make("CancelJob", {
    payload: CancelJob,
    success: Cancelled,
    error: Schema.Union(NotFound, Conflict)
  }),
  Rpc.make("UpdateJob", { payload: UpdateJob, success: Queued, error: Schema.Union(NotFound, Conflict) }),
  Rpc.make("DeleteJob", { payload: DeleteJob, success: Queued, error: Schema.Union(NotFound, Conflict) }),
  Rpc.make("RepostJob", {
    payload: RepostJob,
    success: Reposted,
    error: Schema.Union(NotFound, Conflict)
  })
]))
