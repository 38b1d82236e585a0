import { Context, type Effect } from "effect"
import type { WorkspaceId } from "../../domain/Principal.js"

/**
 * Who relies on a rendered clip that was deleted: jobs still waiting on its render for a decision can never post
 * without the video. Renders stand below channels, whose entities own those jobs, so deleting a clip tells this port
 * and the channels area answers it. A retried delete tells again, so the answer must be idempotent.
 */
export class ClipRemovedListeners
  extends Context.Tag("clipwright/renders/clips/ClipRemovedListeners")<ClipRemovedListeners, {
    readonly removed: (workspaceId: WorkspaceId, clipId: string, renderJobId: string) => Effect.Effect<void>
  }>()
{}
