import { DeliverAt, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { DateTime, PrimaryKey, Schema } from "effect"
import { durableEntity } from "../../domain/EntityCalls.js"
import { InvalidStateTransition, NotFound } from "../../domain/Errors.js"
import { WorkspaceId } from "../../domain/Principal.js"
import { DeliveryState } from "./DeliveryRecord.js"

const BUCKETS = 16

/**
 * The HandOver entity that owns an event's hand-over and every delivery made for it. Keyed by the event through a
 * hash into a fixed number of owners, so one persisted message carries the due posts of many events (a persisted
 * message per delivery would cap hand-over at the ~550 persisted calls/s a node makes; DESIGN "Traps").
 */
export const handOverOwnerOf = (ingestEventId: string) => {
  let hash = 0x811c9dc5
  for (let i = 0; i < ingestEventId.length; i++) hash = Math.imul(hash ^ ingestEventId.charCodeAt(i), 0x01000193)
  return `handover-${(hash >>> 0) % BUCKETS}`
}

export const DueEvent = Schema.Struct({ workspaceId: WorkspaceId, ingestEventId: Schema.String })
export type DueEvent = typeof DueEvent.Type

/** Events with posts whose time came, claimed by a dispatcher; `claim` is unique per message. */
export class HandOverDue extends Schema.Class<HandOverDue>("HandOver/Due")({
  claim: Schema.String,
  events: Schema.Array(DueEvent)
}) {
  [PrimaryKey.symbol]() {
    return `due:${this.claim}`
  }
}

/** The timer of a delivery's next attempt (the first one of a queued update or delete, or a retry). */
export class AttemptDelivery extends Schema.Class<AttemptDelivery>("HandOver/Attempt")({
  workspaceId: WorkspaceId,
  deliveryId: Schema.String,
  attempt: Schema.Number,
  at: Schema.Number
}) implements DeliverAt.DeliverAt {
  [PrimaryKey.symbol]() {
    return `attempt:${this.deliveryId}:${this.attempt}`
  }
  [DeliverAt.symbol]() {
    return DateTime.unsafeMake(this.at)
  }
}

/** A person's redelivery of a dead or retrying delivery (the request id and the delivery key it: one owner has many). */
export class Redeliver extends Schema.Class<Redeliver>("HandOver/Redeliver")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  deliveryId: Schema.String
}) {
  [PrimaryKey.symbol]() {
    return `redeliver:${this.requestId}:${this.deliveryId}`
  }
}

export const HandOverEntity = durableEntity(Entity.make("HandOver", [
  Rpc.make("Due", { payload: HandOverDue }),
  Rpc.make("Attempt", { payload: AttemptDelivery }),
  Rpc.make("Redeliver", {
    payload: Redeliver,
    success: Schema.Struct({ state: DeliveryState }),
    error: Schema.Union(NotFound, InvalidStateTransition)
  })
]))
