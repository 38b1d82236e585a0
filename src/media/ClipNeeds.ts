import { Context, Effect } from "effect"
import type { WorkspaceId } from "../domain/Principal.js"

/**
 * Which kept clips a post still to be handed over relies on: storage never removes those to make room. Clips are
 * rendered and needed in areas above the media library, so it asks through this port; the renders area answers it.
 * Without an answer nothing is needed (a library used on its own).
 */
export class ClipNeeds extends Context.Reference<ClipNeeds>()("clipwright/media/ClipNeeds", {
  defaultValue: () => ({
    neededIds: (_workspaceId: WorkspaceId): Effect.Effect<ReadonlySet<string>> => Effect.succeed(new Set<string>())
  })
}) {}
