import { Schema } from "effect"
import { BrandRecord } from "./BrandRecord.js"
import { BrandStyle } from "./BrandStyle.js"

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

export const BrandName = Schema.NonEmptyTrimmedString.pipe(Schema.maxLength(80))

/** A brand as `GET /v1/brands/{id}`, create and patch answer it: the stored record's public part. */
export const BrandView = BrandRecord.json.pick("id", "name", "enabled", "style")
export type BrandView = typeof BrandView.Type

export const BrandChannel = Schema.Struct({ id: Schema.String, name: Schema.String })
export type BrandChannel = typeof BrandChannel.Type

/** One row of `GET /v1/brands`: the style flattened to what a list shows, and the channels wearing the brand. */
export const BrandSummary = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  enabled: Schema.Boolean,
  primaryColor: Schema.String,
  secondaryColor: Schema.String,
  logoUrl: Schema.NullOr(Schema.String),
  badgeEnabled: Schema.Boolean,
  badgeKind: Schema.String,
  backgroundKind: Schema.String,
  introRatios: Schema.Array(Schema.String),
  outroRatios: Schema.Array(Schema.String),
  hasSound: Schema.Boolean,
  channels: Schema.Array(BrandChannel),
  updatedAt: Schema.String
}).annotations({
  description: "primaryColor and secondaryColor are design.first and design.second; introRatios and outroRatios the " +
    "ratios with a clip uploaded; channels the channels wearing the brand."
})
export type BrandSummary = typeof BrandSummary.Type

const { design } = BrandStyle.fields
const Hex = design.fields.first
const Line = Schema.String.pipe(Schema.maxLength(200))
const Size = Schema.Number.pipe(Schema.positive(), Schema.lessThanOrEqualTo(1000))
const Inset = Schema.Int.pipe(Schema.between(0, 4000))
const RatioKey = Schema.String.pipe(
  Schema.pattern(/^[1-9]\d{0,2}x[1-9]\d{0,2}$/, { message: () => "a ratio like 9x16" })
)
const TextStylePatch = Schema.Struct({
  font: opt(Schema.String.pipe(Schema.maxLength(120))),
  size: opt(Size),
  color: opt(Hex)
})
const Switch = Schema.Struct({ enabled: opt(Schema.Boolean) })

/**
 * What a client may set in a style (create and patch), each key optional and merged into what is stored. File
 * references (logo, badge/background assets, intro/outro clips, sound, fonts) are not part of it: the slot routes
 * write those, and a body carrying them has them ignored.
 */
export const BrandStylePatch = Schema.Struct({
  identity: opt(Schema.Struct({
    name: opt(Line),
    titlePrimary: opt(Line),
    titleSecondary: opt(Line),
    footerPrimary: opt(Line),
    footerSecondary: opt(Line)
  })),
  design: opt(Schema.Struct({ first: opt(Hex), second: opt(Hex), third: opt(Hex), fourth: opt(Hex) })),
  accent: opt(Schema.Struct({ positive: opt(Hex), negative: opt(Hex) })),
  text: opt(Schema.Struct({ primary: opt(TextStylePatch), secondary: opt(TextStylePatch) })),
  badge: opt(Schema.Struct({
    kind: opt(BrandStyle.fields.badge.fields.kind),
    enabled: opt(Schema.Boolean),
    primaryLine: opt(Line),
    secondaryLine: opt(Line)
  })),
  background: opt(Schema.Struct({ kind: opt(Schema.Literal("color")), color: opt(Hex) })),
  safeAreas: opt(Schema.Record({
    key: RatioKey,
    value: Schema.Struct({ top: Inset, right: Inset, bottom: Inset, left: Inset })
  })),
  intro: opt(Switch),
  outro: opt(Switch),
  sound: opt(Switch)
})
export type BrandStylePatch = typeof BrandStylePatch.Type

export const CreateBrandBody = Schema.Struct({
  name: opt(BrandName),
  enabled: opt(Schema.Boolean),
  style: opt(BrandStylePatch)
})
export type CreateBrandBody = typeof CreateBrandBody.Type

export const UpdateBrandBody = CreateBrandBody
export type UpdateBrandBody = typeof UpdateBrandBody.Type

export const DeleteBrandBody = Schema.NullOr(Schema.Struct({ moveTo: opt(Schema.String) }))
