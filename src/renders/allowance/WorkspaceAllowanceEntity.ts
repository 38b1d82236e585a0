import { Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { PrimaryKey, Schema } from "effect"
import { durableEntity } from "../../domain/EntityCalls.js"
import { NotFound, RateLimited, UpstreamUnavailable } from "../../domain/Errors.js"

/** Reserves one video per render job, all or none (a batch is verified whole before anything starts). */
export class Reserve extends Schema.Class<Reserve>("WorkspaceAllowance/Reserve")({
  /**
   * Names this ask; the cluster answers every later ask under the same key with the first one's answer. Made from what
   * is reserved (render job ids, a hand-over), never from a header the client chooses.
   */
  requestId: Schema.String,
  renderJobIds: Schema.Array(Schema.String),
  /** The pipeline's renders wait in the queue for a renderer; a direct export is refused at once when none is free. */
  waitForRenderer: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {
  [PrimaryKey.symbol]() {
    return `reserve:${this.requestId}`
  }
}

export class Settle extends Schema.Class<Settle>("WorkspaceAllowance/Settle")({
  renderJobId: Schema.String,
  outcome: Schema.Literal("commit", "release")
}) {
  [PrimaryKey.symbol]() {
    return `${this.outcome}:${this.renderJobId}`
  }
}

/**
 * One supervisor per workspace (entity id = workspace id). Its mailbox serialises every reservation of the
 * workspace, so parallel submits can never spend more than the allowance.
 */
export const WorkspaceAllowanceEntity = durableEntity(Entity.make("WorkspaceAllowance", [
  Rpc.make("Reserve", {
    payload: Reserve,
    error: Schema.Union(RateLimited, UpstreamUnavailable, NotFound)
  }),
  Rpc.make("Settle", { payload: Settle })
]))
