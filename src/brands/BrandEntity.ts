import { Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { PrimaryKey, Schema } from "effect"
import { durableEntity } from "../domain/EntityCalls.js"
import { Conflict, NotFound } from "../domain/Errors.js"
import { WorkspaceId } from "../domain/Principal.js"
import { SlotEdit, slotEditKey } from "../media/MediaFile.js"
import { BrandStylePatch, BrandView } from "./Brand.js"
import { BrandStyle, SlotFile } from "./BrandStyle.js"

/** Every state change carries the request id as its primary key, so a retried request is applied once. */
export class CreateBrand extends Schema.Class<CreateBrand>("Brand/Create")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  name: Schema.String,
  enabled: Schema.Boolean,
  style: BrandStyle
}) {
  [PrimaryKey.symbol]() {
    return `create:${this.requestId}`
  }
}

/** `style` is merged into the stored style by the entity, the brand's only writer, so concurrent saves compose. */
export class UpdateBrand extends Schema.Class<UpdateBrand>("Brand/Update")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  name: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean),
  style: Schema.optional(BrandStylePatch)
}) {
  [PrimaryKey.symbol]() {
    return `update:${this.requestId}`
  }
}

export class DeleteBrand extends Schema.Class<DeleteBrand>("Brand/Delete")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  moveTo: Schema.NullOr(Schema.String)
}) {
  [PrimaryKey.symbol]() {
    return `delete:${this.requestId}`
  }
}

/** A file slot change from the media library or the slot routes; answers the brand and the slot's previous file. */
export class EditSlots extends Schema.Class<EditSlots>("Brand/EditSlots")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  edit: SlotEdit
}) {
  [PrimaryKey.symbol]() {
    return `slots:${this.requestId}:${slotEditKey(this.edit)}`
  }
}

/** One entity per brand id (ids are ULIDs, global), the only writer of its `brands` row. */
export const BrandEntity = durableEntity(Entity.make("Brand", [
  Rpc.make("Create", { payload: CreateBrand, success: BrandView, error: Conflict }),
  Rpc.make("Update", { payload: UpdateBrand, success: BrandView, error: Schema.Union(NotFound, Conflict) }),
  Rpc.make("EditSlots", {
    payload: EditSlots,
    success: Schema.Struct({ brand: BrandView, previous: Schema.NullOr(SlotFile) }),
    error: NotFound
  }),
  Rpc.make("Delete", {
    payload: DeleteBrand,
    success: Schema.Struct({ moved: Schema.Number }),
    error: Schema.Union(NotFound, Conflict)
  })
]))
