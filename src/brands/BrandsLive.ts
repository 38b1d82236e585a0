import { Layer } from "effect"
import { BrandLooks } from "./BrandLooks.js"
import { BrandRepo } from "./BrandRepo.js"
import { Brands } from "./Brands.js"
import { BrandsHttpLive } from "./BrandsHttp.js"
import { BrandSlotHolders } from "./BrandSlotHolders.js"
import { BrandSlots } from "./BrandSlots.js"
import { BrandSlotsHttpLive } from "./BrandSlotsHttp.js"

/** Brand slots as holders of library files: what the media library's `MediaHolders` port is answered by. */
export const BrandMediaHoldersLive = BrandSlotHolders.mediaHolders.pipe(
  Layer.provideMerge(BrandSlotHolders.layer),
  Layer.provideMerge(BrandRepo.layer)
)

/** Brands, their slots and looks; stands on the media library. */
export const BrandsLive = Layer.mergeAll(BrandsHttpLive, BrandSlotsHttpLive).pipe(
  Layer.provideMerge(Layer.mergeAll(Brands.layer, BrandSlots.layer)),
  Layer.provideMerge(BrandLooks.layer)
)
