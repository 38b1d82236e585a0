import { Context, type Effect } from "effect"
import type { WorkspaceId } from "../domain/Principal.js"
import type { BrandChannel } from "./Brand.js"

/**
 * The channels wearing brands. Brands stand below channels, so they ask through this port and the channels area
 * answers it. Both run inside the caller's transaction, so a brand deletion moves its channels in the same step.
 */
export class BrandWearers extends Context.Tag("clipwright/brands/BrandWearers")<BrandWearers, {
  /** The live channels wearing each brand of the workspace, by brand id. */
  readonly wearing: (workspaceId: WorkspaceId) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<BrandChannel>>>
  /** Every live channel wearing `from` wears `to` instead; the count moved. */
  readonly move: (workspaceId: WorkspaceId, from: string, to: string) => Effect.Effect<number>
}>() {}
