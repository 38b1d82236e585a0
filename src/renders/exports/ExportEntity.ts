import { DeliverAt, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { DateTime, PrimaryKey, Schema } from "effect"
import { durableEntity } from "../../domain/EntityCalls.js"
import { WorkspaceId } from "../../domain/Principal.js"
import { RenderJobState, RenderPackage } from "../RenderJob.js"

export class CreateExport extends Schema.Class<CreateExport>("Export/Create")({
  workspaceId: WorkspaceId,
  createdBy: Schema.String,
  templateName: Schema.String,
  brandName: Schema.NullOr(Schema.String),
  title: Schema.NullOr(Schema.String),
  package: RenderPackage
}) {
  [PrimaryKey.symbol]() {
    return "create"
  }
}

/** The render of this export ended (entity id = export job id = its render job id). */
export class RenderEnded extends Schema.Class<RenderEnded>("Export/RenderEnded")({
  state: RenderJobState
}) {
  [PrimaryKey.symbol]() {
    return "render-ended"
  }
}

/** On seeing a finished export it is kept with the workspace's rendered clips (when it fits) and counted. */
export class SettleExport extends Schema.Class<SettleExport>("Export/Settle")({}) {
  [PrimaryKey.symbol]() {
    return "settle"
  }
}

export class DiscardExport extends Schema.Class<DiscardExport>("Export/Discard")({ requestId: Schema.String }) {
  [PrimaryKey.symbol]() {
    return `discard:${this.requestId}`
  }
}

/** An unkept video is downloadable for two hours after it finished; then its file goes. */
export class ExpireExport extends Schema.Class<ExpireExport>("Export/Expire")({
  at: Schema.DateTimeUtcFromNumber
}) {
  [PrimaryKey.symbol]() {
    return "expire"
  }
  [DeliverAt.symbol]() {
    return this.at
  }
}

export const expireAt = (finishedAt: Date) => DateTime.unsafeMake(finishedAt.getTime() + 2 * 3600 * 1000)

export const ExportEntity = durableEntity(Entity.make("Export", [
  Rpc.make("Create", { payload: CreateExport }),
  Rpc.make("RenderEnded", { payload: RenderEnded }),
  Rpc.make("Settle", { payload: SettleExport }),
  Rpc.make("Discard", { payload: DiscardExport, success: Schema.Struct({ discarded: Schema.Boolean }) }),
  Rpc.make("Expire", { payload: ExpireExport })
]))
