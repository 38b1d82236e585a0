import { ClusterSchema, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { PrimaryKey, Schema } from "effect"

/** Draws every output of the job; stays unprocessed until the render ends, so a dead node's render is redone. */
export class StartRender extends Schema.Class<StartRender>("RenderRunner/Start")({}) {
  [PrimaryKey.symbol]() {
    return "start"
  }
}

export class CancelRender extends Schema.Class<CancelRender>("RenderRunner/Cancel")({ reason: Schema.String }) {
  [PrimaryKey.symbol]() {
    return "cancel"
  }
}

/** One runner per render job (entity id = render job id); PostgreSQL holds its state machine. */
export const RenderRunnerEntity = Entity.make("RenderRunner", [
  Rpc.make("Start", { payload: StartRender }),
  Rpc.make("Cancel", { payload: CancelRender, success: Schema.Struct({ stopped: Schema.Boolean }) })
]).annotateRpcs(ClusterSchema.Persisted, true)
