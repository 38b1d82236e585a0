import { Schema } from "effect"

/** A file held by a brand slot: a media library file, referenced as `media://<assetId>`. */
export const SlotFile = Schema.Struct({
  assetId: Schema.String,
  fileName: Schema.String,
  mimeType: Schema.String,
  url: Schema.String
})
export type SlotFile = typeof SlotFile.Type

const Hex = Schema.String.pipe(Schema.pattern(/^#[0-9a-fA-F]{6}$/, { message: () => "a hex colour like #12AB9F" }))
const TextStyle = Schema.Struct({ font: Schema.String, size: Schema.Number, color: Hex })
const Insets = Schema.Struct({ top: Schema.Int, right: Schema.Int, bottom: Schema.Int, left: Schema.Int })
/** Per-locale variants of a slot file ("default" is the file for every other locale). */
const Localized = Schema.Record({ key: Schema.String, value: SlotFile })

/**
 * The brand style document (SPEC "Brand"). Keys the spec does not show are designed here: `intro`/`outro` hold a
 * switch and one clip per ratio (each per locale), `sound` one file, `fonts` the four font slots.
 */
export const BrandStyle = Schema.Struct({
  identity: Schema.Struct({
    name: Schema.String,
    titlePrimary: Schema.String,
    titleSecondary: Schema.String,
    footerPrimary: Schema.String,
    footerSecondary: Schema.String
  }),
  design: Schema.Struct({ first: Hex, second: Hex, third: Hex, fourth: Hex }),
  accent: Schema.Struct({ positive: Hex, negative: Hex }),
  text: Schema.Struct({ primary: TextStyle, secondary: TextStyle }),
  logo: Schema.NullOr(SlotFile),
  badge: Schema.Struct({
    kind: Schema.Literal("text", "image", "video"),
    enabled: Schema.Boolean,
    primaryLine: Schema.String,
    secondaryLine: Schema.String,
    asset: Schema.NullOr(Localized)
  }),
  background: Schema.Struct({
    kind: Schema.Literal("color", "image", "video"),
    color: Hex,
    asset: Schema.NullOr(Localized)
  }),
  safeAreas: Schema.Record({ key: Schema.String, value: Insets }),
  intro: Schema.Struct({ enabled: Schema.Boolean, clips: Schema.Record({ key: Schema.String, value: Localized }) }),
  outro: Schema.Struct({ enabled: Schema.Boolean, clips: Schema.Record({ key: Schema.String, value: Localized }) }),
  sound: Schema.Struct({ enabled: Schema.Boolean, asset: Schema.NullOr(SlotFile) }),
  fonts: Schema.Struct({
    primary: Schema.NullOr(SlotFile),
    secondary: Schema.NullOr(SlotFile),
    tertiary: Schema.NullOr(SlotFile),
    frame: Schema.NullOr(SlotFile)
  })
})
export type BrandStyle = typeof BrandStyle.Type
