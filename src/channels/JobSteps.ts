import { Context, type Effect } from "effect"
import type { Conflict, InvalidStateTransition, NotFound } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import type { Cancelled, Decided, Queued, Reposted } from "../posts/JobAnswers.js"
import type {
  CancelJob,
  DecideApproval,
  DeleteJob,
  JobRenderEnded,
  RepostJob,
  StartJob,
  UpdateJob
} from "./ChannelEntity.js"

/**
 * The job and post steps the channel entity takes for its channel (docs/pipeline.md). The entity is where they run,
 * one message at a time per channel; the steps themselves are the publishing area's. Publishing stands on channels
 * (it reads channels and sends to their entity), so the entity reaches its steps through this port, answered by
 * src/publishing/states/JobStepsLive.ts, instead of importing publishing in a circle.
 */
export class JobSteps extends Context.Tag("clipwright/channels/JobSteps")<JobSteps, {
  readonly start: (payload: StartJob) => Effect.Effect<void, unknown>
  readonly renderEnded: (payload: JobRenderEnded) => Effect.Effect<void, unknown>
  readonly decide: (payload: DecideApproval) => Effect.Effect<typeof Decided.Type, NotFound | InvalidStateTransition>
  readonly cancel: (payload: CancelJob) => Effect.Effect<typeof Cancelled.Type, NotFound | Conflict>
  /** Cancels every open job of a deleted channel; answers how many. */
  readonly cancelAllOf: (workspaceId: WorkspaceId, channelId: string) => Effect.Effect<number>
  readonly update: (payload: UpdateJob) => Effect.Effect<typeof Queued.Type, NotFound | Conflict>
  readonly remove: (payload: DeleteJob) => Effect.Effect<typeof Queued.Type, NotFound | Conflict>
  readonly repost: (payload: RepostJob) => Effect.Effect<typeof Reposted.Type, NotFound | Conflict>
}>() {}
