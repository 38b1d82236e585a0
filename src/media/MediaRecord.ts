import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { MediaKind } from "./MediaFile.js"

/**
 * A media library file: its row in `media_files`, the bytes in the blob store under `blobKey`. `byteSize` is a
 * bigint column, which pg hands back as text. A deleted file keeps its row (`deletedAt` set) and frees its name.
 */
export class MediaRecord extends Model.Class<MediaRecord>("MediaRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  name: Schema.String,
  mimeType: Schema.String,
  kind: MediaKind,
  byteSize: Schema.NumberFromString,
  sha256: Schema.String,
  blobKey: Schema.String,
  width: Schema.NullOr(Schema.Int),
  height: Schema.NullOr(Schema.Int),
  uploadedBy: Schema.String,
  createdAt: Model.DateTimeInsertFromDate,
  deletedAt: Model.FieldOnly("select")(Schema.NullOr(Model.DateTimeFromDate))
}) {}

/** A new file as the library stores it; the repository adds the workspace and the time. */
export type NewMediaFile = Omit<typeof MediaRecord.insert.Type, "workspaceId" | "createdAt">
