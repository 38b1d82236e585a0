import type { Delivery } from "../../delivery/log/Delivery.js"
import { STATE_LABELS } from "./DeliveryBits.js"

/** How a Redeliver went, carried to the delivery's page in its address (`?outcome=`) after the POST. */
export type Outcome = "redelivered" | "refused" | "busy"

/**
 * The line the page shows after a Redeliver. What the redelivery brought is read from the delivery's last attempt as
 * it stands, so a reload says the same and a hand-made address cannot claim a success that did not happen.
 */
export const noticeOf = (outcome: string | undefined, delivery: Delivery) => {
  switch (outcome) {
    case "redelivered": {
      const last = delivery.attempts.at(-1)
      if (last === undefined || !last.redelivery) return undefined
      const status = last.statusCode === null ? "" : ` (status ${last.statusCode})`
      return last.error === null
        ? { text: `Redelivered: the receiver accepted it${status}.`, failed: false }
        : { text: `Redelivered, but it failed again${status}: ${last.error}`, failed: true }
    }
    case "refused":
      return {
        text: `Not redelivered: only a dead or retrying delivery is sent again, and this one is ${
          STATE_LABELS[delivery.state].toLowerCase()
        }.`,
        failed: true
      }
    case "busy":
      return { text: "Not redelivered: the service is busy right now. Try again shortly.", failed: true }
    default:
      return undefined
  }
}
