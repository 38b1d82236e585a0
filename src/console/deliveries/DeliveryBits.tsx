import type { DeliveryRow } from "../../delivery/log/Delivery.js"

export const STATE_LABELS = {
  PENDING: "Pending",
  RETRYING: "Retrying",
  DELIVERED: "Delivered",
  DEAD: "Dead"
} as const satisfies Record<DeliveryRow["state"], string>

export const VIA_LABELS = { webhook: "Webhook", email: "Email" } as const satisfies Record<DeliveryRow["via"], string>

export const EVENTS = ["post.publish", "post.update", "post.delete"] as const satisfies ReadonlyArray<
  DeliveryRow["event"]
>

/** Only these can be sent again (SPEC: "a delivery may be dead or retrying and can be redelivered"). */
export const canRedeliver = (state: DeliveryRow["state"]) => state === "DEAD" || state === "RETRYING"

/** An instant to the second: retries come seconds apart, so minutes would hide their order. */
export const at = (iso: string | null) => iso === null ? "" : `${iso.slice(0, 19).replace("T", " ")} UTC`

export const deliveryHref = (id: string) => `/console/deliveries/${encodeURIComponent(id)}`

/** A delivery's state as a word and a colour, so a dead one stands out without relying on colour alone. */
export const StateBadge = ({ state }: { readonly state: DeliveryRow["state"] }) => (
  <span class={`badge state-${state.toLowerCase()}`}>
    {state === "DEAD" ? <span aria-hidden="true">✖</span> : ""}
    {STATE_LABELS[state]}
  </span>
)

/** What the last attempt brought back, in a few words: its status code and error. */
export const lastAnswer = (d: Pick<DeliveryRow, "lastStatusCode" | "lastError" | "attempt">) =>
  d.attempt === 0
    ? "not tried yet"
    : [d.lastStatusCode === null ? "" : String(d.lastStatusCode), d.lastError ?? ""].filter((s) => s !== "")
      .join(" · ") || "no answer recorded"
