import { Layer } from "effect"
import { Receipts } from "./Receipts.js"
import { ReceiptsHttpLive } from "./ReceiptsHttp.js"
import { ReceiptsRepo } from "./ReceiptsRepo.js"

/** Signed receipts: the receipt page and the receiver's answers to a hand-over (`/v1/receipts`). */
export const ReceiptsLive = ReceiptsHttpLive.pipe(
  Layer.provideMerge(Receipts.layer),
  Layer.provideMerge(ReceiptsRepo.layer)
)
