import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { StampedByDatabase } from "../sql/Columns.js"

export const MemberRole = Schema.Literal("owner", "operations", "member")
export type MemberRole = typeof MemberRole.Type

/** Someone of the workspace: owners and Operations members receive its emails. */
export class Member extends Model.Class<Member>("Member")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  email: Schema.String,
  role: MemberRole,
  createdAt: StampedByDatabase
}) {}
