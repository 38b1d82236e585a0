import { ClusterSchema, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { PrimaryKey, Schema } from "effect"
import { durableEntity } from "../domain/EntityCalls.js"

/**
 * Draws every output of the job; stays unprocessed until the render ends, so a dead node's render is redone. `round`
 * is set when the orphan sweep starts a render again whose Start was answered without ending it (OrphanRenders.ts):
 * a new message, not the stored answer of the first.
 */
export class StartRender extends Schema.Class<StartRender>("RenderRunner/Start")({
  round: Schema.optional(Schema.Number)
}) {
  [PrimaryKey.symbol]() {
    return this.round === undefined ? "start" : `start:${this.round}`
  }
}

export class CancelRender extends Schema.Class<CancelRender>("RenderRunner/Cancel")({ reason: Schema.String }) {
  [PrimaryKey.symbol]() {
    return "cancel"
  }
}

/** The shard group of render runners: only nodes with render slots serve it (cluster/Cluster.ts). */
export const RENDER_SHARD_GROUP = "render"

/**
 * One runner per render job (entity id = render job id); PostgreSQL holds its state machine. Runners live only on
 * nodes with render slots: on a cluster with none, their messages wait in storage until a node with slots joins.
 */
export const RenderRunnerEntity = durableEntity(Entity.make("RenderRunner", [
  Rpc.make("Start", { payload: StartRender }),
  Rpc.make("Cancel", { payload: CancelRender, success: Schema.Struct({ stopped: Schema.Boolean }) })
])).annotate(ClusterSchema.ShardGroup, () => RENDER_SHARD_GROUP)
