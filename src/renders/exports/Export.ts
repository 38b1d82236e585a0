import { Schema } from "effect"
import { ExportStatus, RenderJobState } from "../RenderJob.js"

const Ratio = Schema.String.pipe(Schema.pattern(/^\d+x\d+$/, { message: () => "a ratio such as 9x16" }))
const Locale = Schema.String.pipe(Schema.minLength(2), Schema.maxLength(5))

export const TimingBody = Schema.Struct({
  templateId: Schema.String,
  version: Schema.optional(Schema.String),
  variant: Schema.optional(Schema.String),
  data: Schema.Unknown
})

const videoFields = {
  templateId: Schema.String,
  version: Schema.String,
  variant: Schema.optional(Schema.String),
  brandId: Schema.optional(Schema.NullOr(Schema.String)),
  title: Schema.optional(Schema.String.pipe(Schema.maxLength(120))),
  data: Schema.Unknown
}

export const VideoBody = Schema.Struct({ ...videoFields, ratio: Ratio, locale: Schema.optional(Locale) })
export type VideoBody = typeof VideoBody.Type

export const BatchBody = Schema.Struct({
  ...videoFields,
  ratios: Schema.Array(Ratio).pipe(Schema.minItems(1)),
  locales: Schema.optional(Schema.Array(Locale).pipe(Schema.minItems(1)))
})
export type BatchBody = typeof BatchBody.Type

export const ExportPoll = Schema.Struct({
  status: ExportStatus,
  progress: Schema.Number,
  renderer: RenderJobState,
  ahead: Schema.Number,
  error: Schema.NullOr(Schema.String),
  kept: Schema.Boolean,
  keptNote: Schema.NullOr(Schema.String)
})

export const QueueEntry = Schema.Struct({
  jobId: Schema.String,
  templateId: Schema.String,
  templateName: Schema.String,
  variant: Schema.String,
  version: Schema.String,
  ratio: Schema.String,
  locale: Schema.String,
  brandId: Schema.NullOr(Schema.String),
  brandName: Schema.NullOr(Schema.String),
  status: ExportStatus,
  progress: Schema.Number,
  ahead: Schema.Number,
  error: Schema.NullOr(Schema.String),
  kept: Schema.Boolean,
  keptNote: Schema.NullOr(Schema.String),
  byteSize: Schema.NullOr(Schema.Number),
  durationMs: Schema.NullOr(Schema.Number),
  createdAt: Schema.String
})
export type QueueEntry = typeof QueueEntry.Type

export const MAX_BATCH = 24
