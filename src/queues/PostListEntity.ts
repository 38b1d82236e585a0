import { DeliverAt, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { DateTime, PrimaryKey, Schema } from "effect"
import { durableEntity } from "../domain/EntityCalls.js"
import {
  Conflict,
  InvalidStateTransition,
  NotFound,
  SchemaValidation,
  TemplateNotApproved,
  UnknownTemplate
} from "../domain/Errors.js"
import { WorkspaceId } from "../domain/Principal.js"
import { ChangePackageBody } from "./PostList.js"
import { PackageContent } from "./PostListRecord.js"

/** Every state change carries the request id as its primary key, so a retried request is applied once. */
export class CreateList extends Schema.Class<CreateList>("PostList/Create")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  name: Schema.String
}) {
  [PrimaryKey.symbol]() {
    return `create:${this.requestId}`
  }
}

export class UpdateList extends Schema.Class<UpdateList>("PostList/Update")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  name: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean)
}) {
  [PrimaryKey.symbol]() {
    return `update:${this.requestId}`
  }
}

export class DeleteList extends Schema.Class<DeleteList>("PostList/Delete")({
  requestId: Schema.String,
  workspaceId: WorkspaceId
}) {
  [PrimaryKey.symbol]() {
    return `delete:${this.requestId}`
  }
}

/** A package checked by the service (every rule applied, `now` resolved to an instant). */
export class AddPackage extends Schema.Class<AddPackage>("PostList/AddPackage")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  packageId: Schema.String,
  content: PackageContent
}) {
  [PrimaryKey.symbol]() {
    return `add-package:${this.requestId}`
  }
}

/**
 * The change as sent (a new time already resolved to epoch milliseconds and checked against the clock): the entity
 * lays it over the stored package and checks the result, so two changes to one package compose.
 */
export class ChangePackage extends Schema.Class<ChangePackage>("PostList/ChangePackage")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  packageId: Schema.String,
  changes: ChangePackageBody.pipe(Schema.omit("scheduledFor")),
  scheduledFor: Schema.optional(Schema.Number)
}) {
  [PrimaryKey.symbol]() {
    return `change-package:${this.requestId}:${this.packageId}`
  }
}

export class RemovePackage extends Schema.Class<RemovePackage>("PostList/RemovePackage")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  packageId: Schema.String
}) {
  [PrimaryKey.symbol]() {
    return `remove-package:${this.requestId}:${this.packageId}`
  }
}

/**
 * A package's timer, delivered at its time. `armed` is the package's timer count when it was set: a new time or the
 * list enabled again sets a new timer under a new key (a processed key never runs again), and the old one, finding
 * another count stored, does nothing.
 */
export class Fire extends Schema.Class<Fire>("PostList/Fire")({
  workspaceId: WorkspaceId,
  packageId: Schema.String,
  at: Schema.Number,
  armed: Schema.Number
}) implements DeliverAt.DeliverAt {
  [PrimaryKey.symbol]() {
    return `fire:${this.packageId}:${this.at}:${this.armed}`
  }
  [DeliverAt.symbol]() {
    return DateTime.unsafeMake(this.at)
  }
}

/** A media file replaced by another: scheduled packages referring to it refer to the new one. */
export class RepointMedia extends Schema.Class<RepointMedia>("PostList/RepointMedia")({
  requestId: Schema.String,
  workspaceId: WorkspaceId,
  fileId: Schema.String,
  nextId: Schema.String
}) {
  [PrimaryKey.symbol]() {
    return `repoint:${this.requestId}:${this.fileId}`
  }
}

const ContentRefusal = Schema.Union(SchemaValidation, UnknownTemplate, TemplateNotApproved)

/**
 * One entity per post list id (ULIDs, global): the only writer of its `queues` row and its packages, and the owner of
 * their timers.
 */
export const PostListEntity = durableEntity(Entity.make("PostList", [
  Rpc.make("Create", { payload: CreateList, error: Conflict }),
  Rpc.make("Update", { payload: UpdateList, error: Schema.Union(NotFound, Conflict) }),
  Rpc.make("Delete", {
    payload: DeleteList,
    success: Schema.Struct({ removedFromChannels: Schema.Number }),
    error: NotFound
  }),
  Rpc.make("AddPackage", { payload: AddPackage, error: NotFound }),
  Rpc.make("ChangePackage", {
    payload: ChangePackage,
    error: Schema.Union(NotFound, InvalidStateTransition, ContentRefusal)
  }),
  Rpc.make("RemovePackage", { payload: RemovePackage, error: NotFound }),
  Rpc.make("Fire", { payload: Fire }),
  Rpc.make("RepointMedia", { payload: RepointMedia, success: Schema.Number })
]))
