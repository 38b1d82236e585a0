import { Schema } from "effect"
import { MediaKind } from "./MediaFile.js"

/** A stored media library file: its row in `media_files`. */
export const MediaRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  name: Schema.String,
  mimeType: Schema.String,
  kind: MediaKind,
  byteSize: Schema.NumberFromString,
  sha256: Schema.String,
  blobKey: Schema.String,
  width: Schema.NullOr(Schema.Number),
  height: Schema.NullOr(Schema.Number),
  uploadedBy: Schema.String,
  createdAt: Schema.DateFromSelf
})
export type MediaRow = typeof MediaRow.Type

export interface MediaInsert {
  readonly id: string
  readonly workspaceId: string
  readonly name: string
  readonly mimeType: string
  readonly kind: MediaKind
  readonly byteSize: number
  readonly sha256: string
  readonly blobKey: string
  readonly width: number | null
  readonly height: number | null
  readonly uploadedBy: string
}
