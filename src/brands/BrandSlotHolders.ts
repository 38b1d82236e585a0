import { Context, Effect, FiberRef, Layer } from "effect"
import { entityCall } from "../domain/EntityCalls.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { mediaRef, type MediaUse, type SlotEdit } from "../media/MediaFile.js"
import { type HeldFile, MediaHolders } from "../media/MediaHolders.js"
import { BrandEntity } from "./BrandEntity.js"
import { BrandRepo } from "./BrandRepo.js"
import type { SlotFile } from "./BrandStyle.js"
import { heldFiles, holds } from "./SlotStyle.js"

/** How a brand style refers to a library file. */
export const slotFileOf = (row: HeldFile): SlotFile => ({
  assetId: row.id,
  fileName: row.name,
  mimeType: row.mimeType,
  url: mediaRef(row.id)
})

/**
 * The brand slots holding library files. Styles are read from the
 * brand rows and changed only through the brand entity, the rows' one writer, so a concurrent brand save keeps them.
 */
const make = Effect.gen(function*() {
  const brands = yield* BrandRepo
  const entity = yield* BrandEntity.client

  const uses = Effect.fn("BrandSlotHolders.uses")(function*(workspaceId: WorkspaceId, id: string) {
    const rows = yield* brands.listLive(workspaceId)
    return rows.flatMap((brand) =>
      heldFiles(brand.style).filter((held) => held.file.assetId === id).map((held): MediaUse => ({
        kind: "brandSlot",
        brandId: brand.id,
        brandName: brand.name,
        slot: held.slot,
        ...(held.locale === undefined ? {} : { locale: held.locale })
      }))
    )
  })

  const edit = Effect.fn("BrandSlotHolders.edit")(function*(
    workspaceId: WorkspaceId,
    brandId: string,
    change: SlotEdit
  ) {
    const requestId = yield* FiberRef.get(CurrentRequestId)
    return yield* entityCall(entity(brandId).EditSlots({ requestId, workspaceId, edit: change }))
  })

  /** Every slot of every live brand holding `id` holds `next` instead, or is emptied (`null`). */
  const repoint = Effect.fn("BrandSlotHolders.repoint")(function*(
    workspaceId: WorkspaceId,
    id: string,
    next: SlotFile | null
  ) {
    const rows = yield* brands.listLive(workspaceId)
    yield* Effect.forEach(
      rows.filter((brand) => holds(brand.style, id)),
      // A brand deleted meanwhile holds nothing any more.
      (brand) =>
        edit(workspaceId, brand.id, { _tag: "Swap", fileId: id, next }).pipe(
          Effect.catchTag("NotFound", () => Effect.void)
        ),
      { discard: true }
    )
  })

  /** Whether any slot of any live brand holds the file. */
  const isHeld = (workspaceId: WorkspaceId, id: string) =>
    Effect.map(brands.listLive(workspaceId), (rows) => rows.some((brand) => holds(brand.style, id)))

  return { uses, edit, repoint, isHeld }
})

export class BrandSlotHolders extends Context.Tag("clipwright/brands/BrandSlotHolders")<
  BrandSlotHolders,
  Effect.Effect.Success<typeof make>
>() {
  /** Needs `BrandRepo` and the brand entity's client (the cluster). */
  static readonly layer = Layer.effect(BrandSlotHolders, make)
  /** Brand slots answer the media library's `MediaHolders` port. */
  static readonly mediaHolders = Layer.effect(
    MediaHolders,
    Effect.map(BrandSlotHolders, (holders) => ({
      uses: holders.uses,
      repoint: (workspaceId: WorkspaceId, id: string, next: HeldFile | null) =>
        holders.repoint(workspaceId, id, next === null ? null : slotFileOf(next))
    }))
  )
}
