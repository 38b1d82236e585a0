import { Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { PrimaryKey, Schema } from "effect"
import { durableEntity } from "../domain/EntityCalls.js"
import { Conflict, NotFound } from "../domain/Errors.js"
import { WorkspaceId } from "../domain/Principal.js"
import { FieldMap } from "./Stream.js"

/** Every state change carries the request id as its primary key, so a retried request is applied once. */
export class CreateStream extends Schema.Class<CreateStream>("Stream/Create")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  name: Schema.String,
  description: Schema.String,
  enabled: Schema.Boolean,
  templateId: Schema.String,
  fieldMap: FieldMap
}) {
  [PrimaryKey.symbol]() {
    return `create:${this.requestId}`
  }
}

export class UpdateStream extends Schema.Class<UpdateStream>("Stream/Update")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  name: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean),
  templateId: Schema.optional(Schema.String),
  fieldMap: Schema.optional(FieldMap)
}) {
  [PrimaryKey.symbol]() {
    return `update:${this.requestId}`
  }
}

export class DeleteStream extends Schema.Class<DeleteStream>("Stream/Delete")({
  requestId: Schema.String,
  workspaceId: WorkspaceId
}) {
  [PrimaryKey.symbol]() {
    return `delete:${this.requestId}`
  }
}

/** One entity per stream id (ids are global), the only writer of its `streams` row. */
export const StreamEntity = durableEntity(Entity.make("Stream", [
  Rpc.make("Create", { payload: CreateStream, error: Conflict }),
  Rpc.make("Update", { payload: UpdateStream, error: NotFound }),
  Rpc.make("Delete", { payload: DeleteStream, error: NotFound })
]))
