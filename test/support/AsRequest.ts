import { Effect } from "effect"
import { CurrentRequestId } from "../../src/domain/RequestId.js"
import { newUlid } from "../../src/domain/Ulid.js"

/** Runs `effect` as one request: its id keys the state changes it sends, so a retried call is the same call. */
export const asRequest = <A, E, R>(effect: Effect.Effect<A, E, R>, requestId = newUlid()) =>
  Effect.locally(effect, CurrentRequestId, requestId)
