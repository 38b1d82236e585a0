import { Schema } from "effect"
import { PayloadTooLarge } from "../../domain/Errors.js"

export const MAX_ZIP_EXPORTS = 24
export const MAX_ZIP_BYTES = 400 * 1024 * 1024
export const DEFAULT_VIDEOS_LIMIT = 24
export const MAX_VIDEOS_LIMIT = 100

export const ZipBody = Schema.Struct({
  jobIds: Schema.Array(Schema.String.pipe(Schema.minLength(1))).pipe(
    Schema.minItems(1),
    Schema.maxItems(MAX_ZIP_EXPORTS)
  )
})
export type ZipBody = typeof ZipBody.Type

export const VideosQuery = Schema.Struct({
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, MAX_VIDEOS_LIMIT)))
})

/** `?as=video` is accepted and changes nothing. */
export const AsVideoQuery = Schema.Struct({ as: Schema.optional(Schema.Literal("video")) })

export const LinkQuery = Schema.Struct({
  as: Schema.optional(Schema.Literal("video")),
  key: Schema.optional(Schema.String)
})

export const ExportLink = Schema.Struct({
  url: Schema.String,
  expiresAt: Schema.NullOr(Schema.String),
  form: Schema.Literal("video"),
  kept: Schema.Boolean
})

const keptEntryFields = {
  jobId: Schema.String,
  templateId: Schema.String,
  templateName: Schema.String,
  version: Schema.String,
  ratio: Schema.String,
  locale: Schema.String,
  brandId: Schema.NullOr(Schema.String),
  width: Schema.NullOr(Schema.Number),
  height: Schema.NullOr(Schema.Number),
  durationMs: Schema.NullOr(Schema.Number),
  byteSize: Schema.NullOr(Schema.Number),
  createdBy: Schema.String,
  createdAt: Schema.String,
  videoUrl: Schema.String
}

export const KeptEntry = Schema.Struct(keptEntryFields)
export type KeptEntry = typeof KeptEntry.Type

export const KeptExport = Schema.Struct({
  ...keptEntryFields,
  variant: Schema.String,
  title: Schema.NullOr(Schema.String),
  data: Schema.Unknown
})

export const ReuseRecord = Schema.Struct({
  kind: Schema.Literal("export"),
  templateId: Schema.String,
  templateName: Schema.String,
  variant: Schema.String,
  version: Schema.String,
  pinnedVersion: Schema.String,
  brandId: Schema.NullOr(Schema.String),
  ratio: Schema.String,
  locale: Schema.String,
  data: Schema.Unknown,
  title: Schema.NullOr(Schema.String),
  queueId: Schema.Null
})

const slug = (s: string) =>
  s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9.]+/g, "-").replace(
    /^[-.]+|[-.]+$/g,
    ""
  )

export interface VideoNaming {
  readonly templateName: string
  readonly variant: string
  readonly version: string
  readonly brandName: string | null
  readonly ratio: string
  readonly locale: string
}

/** Template, variant, version, brand, shape and language: `market-move_compact_1.0.1_no-brand_1x1_en.mp4`. */
export const videoFileName = (v: VideoNaming): string =>
  [
    slug(v.templateName) || "video",
    slug(v.variant),
    slug(v.version),
    (v.brandName === null ? "" : slug(v.brandName)) || "no-brand",
    slug(v.ratio),
    slug(v.locale)
  ].join("_") + ".mp4"

/** The zip's 400 MB ceiling, over the videos' sizes together; undefined when it fits. */
export const zipSizeProblem = (byteSizes: ReadonlyArray<number>): PayloadTooLarge | undefined => {
  const total = byteSizes.reduce((sum, n) => sum + n, 0)
  if (total <= MAX_ZIP_BYTES) return undefined
  const mb = (n: number) => Math.ceil(n / (1024 * 1024))
  return new PayloadTooLarge({
    message: `These videos come to ${mb(total)} MB together; an export zip holds at most ${mb(MAX_ZIP_BYTES)} MB.`
  })
}
