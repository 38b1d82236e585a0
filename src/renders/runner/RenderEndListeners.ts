import { Context, type Effect } from "effect"
import type { WorkspaceId } from "../../domain/Principal.js"
import type { RenderJobState } from "../RenderJob.js"

/**
 * Who waits on a pipeline render (origin other than `export`). Renders stand below channels, whose jobs wait on
 * them, so the runner tells this port and the channels area answers it. Told at least once per end (a runner
 * redone after a crash tells again), so the answer must be idempotent.
 */
export class RenderEndListeners
  extends Context.Tag("clipwright/renders/runner/RenderEndListeners")<RenderEndListeners, {
    readonly ended: (workspaceId: WorkspaceId, renderJobId: string, state: RenderJobState) => Effect.Effect<void>
  }>()
{}
