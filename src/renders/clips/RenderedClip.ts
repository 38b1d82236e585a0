import { Schema } from "effect"

/** SPEC "Rendered clip": one row of `GET /v1/media/renders`. */
export const RenderedClip = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("video"),
  mimeType: Schema.String,
  byteSize: Schema.Number,
  ratio: Schema.String,
  locale: Schema.String,
  width: Schema.Number,
  height: Schema.Number,
  durationMs: Schema.Number,
  createdAt: Schema.String,
  templateId: Schema.String,
  templateName: Schema.String,
  channelName: Schema.NullOr(Schema.String),
  url: Schema.String,
  needed: Schema.Boolean,
  neededBecause: Schema.NullOr(Schema.String)
}).annotations({ identifier: "RenderedClip" })
export type RenderedClip = typeof RenderedClip.Type

/** SPEC "Asset metadata" (`GET /v1/assets/{id}`): rendered clips only. */
export const AssetMetadata = Schema.Struct({
  assetId: Schema.String,
  kind: Schema.Literal("video"),
  ratio: Schema.String,
  locale: Schema.String,
  mimeType: Schema.String,
  width: Schema.Number,
  height: Schema.Number,
  durationMs: Schema.Number,
  byteSize: Schema.Number,
  sha256: Schema.String,
  url: Schema.String,
  expiresAt: Schema.String
}).annotations({ identifier: "AssetMetadata" })
export type AssetMetadata = typeof AssetMetadata.Type

/** The signature of an asset download; both are checked by the route, so a missing one is 403, not 400. */
export const SignedQuery = Schema.Struct({
  exp: Schema.optional(Schema.String),
  sig: Schema.optional(Schema.String)
})

/** Every rendered clip is an MP4 video. */
export const CLIP_MIME_TYPE = "video/mp4"

/** Signed preview and asset URLs hold about one hour (SPEC Limits). */
export const ASSET_URL_TTL = "1 hour"

/** The path a clip's signed download URL names (and the resource its signature covers). */
export const assetDownloadPath = (clipId: string) => `/v1/assets/${encodeURIComponent(clipId)}/download`
