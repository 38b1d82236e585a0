import { Layer } from "effect"
import { Deliveries } from "./Deliveries.js"
import { DeliveriesHttpLive } from "./DeliveriesHttp.js"
import { DeliveriesQuery } from "./DeliveriesQuery.js"

/** The deliveries log (`/v1/deliveries`) and redelivery. */
export const DeliveriesLive = DeliveriesHttpLive.pipe(
  Layer.provideMerge(Deliveries.layer),
  Layer.provideMerge(DeliveriesQuery.layer)
)
