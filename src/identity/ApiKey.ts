import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { JsonbColumn, StampedByDatabase } from "../sql/Columns.js"

/** A stored API key: only its hash is kept. A platform key belongs to no workspace. */
export class ApiKey extends Model.Class<ApiKey>("ApiKey")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Schema.NullOr(WorkspaceId),
  kind: Schema.Literal("apikey", "platform"),
  name: Schema.NullOr(Schema.String),
  keyHash: Model.Sensitive(Schema.String),
  scopes: JsonbColumn(Schema.Array(Schema.String)),
  createdAt: StampedByDatabase,
  revokedAt: Model.FieldExcept("insert", "jsonCreate")(Schema.NullOr(Schema.DateFromSelf))
}) {}

/** A key as authentication reads it: with its workspace's name. */
export const KeyWithWorkspace = Schema.Struct({
  ...ApiKey.select.pick("id", "kind", "workspaceId", "scopes", "revokedAt").fields,
  workspaceName: Schema.NullOr(Schema.String)
})
export type KeyWithWorkspace = typeof KeyWithWorkspace.Type

export const isLive = (key: Pick<KeyWithWorkspace, "revokedAt">): boolean => key.revokedAt === null
