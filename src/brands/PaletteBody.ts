import { Schema } from "effect"

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

export const PaletteHex = Schema.String.pipe(
  Schema.pattern(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { message: () => "a hex colour like #12AB9F" })
)

const Overrides = Schema.Struct({
  stage: opt(PaletteHex),
  surface: opt(PaletteHex),
  surfaceRaised: opt(PaletteHex),
  line: opt(PaletteHex),
  lineStrong: opt(PaletteHex),
  textStrong: opt(PaletteHex),
  textBody: opt(PaletteHex),
  textMuted: opt(PaletteHex),
  onBrand: opt(PaletteHex),
  brand: opt(PaletteHex),
  brandMuted: opt(PaletteHex),
  brandSecond: opt(PaletteHex),
  positive: opt(PaletteHex),
  negative: opt(PaletteHex),
  neutral: opt(PaletteHex)
})

/**
 * `POST /v1/brands/palette`. `brand` is checked by the service, so that a missing or unreadable brand colour is
 * reported at `/palette/brand`, the path the spec names.
 */
export const PaletteBody = Schema.NullOr(Schema.Struct({
  brand: opt(Schema.Unknown.annotations({ description: "required hex colour (#rgb or #rrggbb)" })),
  stage: opt(Schema.Literal("dark", "light")),
  background: opt(PaletteHex),
  direction: opt(Schema.Literal("green-up", "red-up", "custom")),
  positive: opt(PaletteHex),
  negative: opt(PaletteHex),
  second: opt(PaletteHex),
  overrides: opt(Overrides)
}))
export type PaletteBody = typeof PaletteBody.Type

const Color = Schema.String
export const PaletteColors = Schema.Struct({
  stage: Color,
  surface: Color,
  surfaceRaised: Color,
  line: Color,
  lineStrong: Color,
  textStrong: Color,
  textBody: Color,
  textMuted: Color,
  onBrand: Color,
  brand: Color,
  brandMuted: Color,
  brandSecond: Color,
  positive: Color,
  negative: Color,
  neutral: Color,
  series: Schema.Array(Color)
})

export const ContrastCheck = Schema.Struct({
  label: Schema.String,
  ratio: Schema.Number,
  target: Schema.Number,
  ok: Schema.Boolean
})

export const PaletteAnswer = Schema.Struct({ palette: PaletteColors, checks: Schema.Array(ContrastCheck) })
