import { Schema } from "effect"
import { allRatios } from "../drawing/Ratios.js"

const describe = (description: string) => ({ description })

export const Ratio = Schema.Literal(...allRatios).annotations(describe("Shape as `NxM`."))

const JsonDocument = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** One input of a build, as a human reads it (SPEC "Template input description"). */
export interface TemplateKey {
  readonly key: string
  readonly type: "group" | "text" | "list" | "number" | "enum"
  readonly label: string
  readonly required: boolean
  readonly maxLength?: number | undefined
  readonly maxItems?: number | undefined
  readonly decimals?: number | undefined
  readonly values?: ReadonlyArray<string> | undefined
  readonly example?: unknown
  readonly keys?: ReadonlyArray<TemplateKey> | undefined
  readonly item?: TemplateKey | undefined
}

export const TemplateKey: Schema.Schema<TemplateKey> = Schema.Struct({
  key: Schema.String,
  type: Schema.Literal("group", "text", "list", "number", "enum"),
  label: Schema.String,
  required: Schema.Boolean,
  maxLength: Schema.optional(Schema.Number),
  maxItems: Schema.optional(Schema.Number),
  decimals: Schema.optional(Schema.Number),
  values: Schema.optional(Schema.Array(Schema.String)),
  example: Schema.optional(Schema.Unknown),
  keys: Schema.optional(Schema.Array(Schema.suspend((): Schema.Schema<TemplateKey> => TemplateKey))),
  item: Schema.optional(Schema.suspend((): Schema.Schema<TemplateKey> => TemplateKey))
}).annotations({ identifier: "TemplateKey", ...describe("A group has nested `keys`, a list has `item`.") })

export const InputDescription = Schema.Struct({
  templateId: Schema.String,
  templateName: Schema.String,
  variant: Schema.String,
  version: Schema.String,
  ratios: Schema.Array(Ratio),
  keys: Schema.Struct({ format: Schema.String, summary: Schema.String, keys: Schema.Array(TemplateKey) }),
  jsonSchema: JsonDocument.annotations(describe("The same inputs as a JSON Schema (draft 2020-12).")),
  example: Schema.Unknown.annotations(describe("A worked payload that satisfies the schema."))
}).annotations({ identifier: "InputDescription" })

export const TemplateView = Schema.Struct({
  templateId: Schema.String,
  offered: Schema.Boolean,
  version: Schema.String,
  name: Schema.String,
  contentStyle: Schema.String,
  family: Schema.String,
  milestone: Schema.Number,
  ratios: Schema.Array(Ratio),
  duration: Schema.Struct({ mode: Schema.Literal("fixed"), frames: Schema.Number }),
  subvariants: Schema.Array(Schema.String),
  overridableStyle: Schema.Array(Schema.String),
  inputSchema: JsonDocument,
  variants: Schema.Array(Schema.Struct({ name: Schema.String, versions: Schema.Array(Schema.String) })),
  descriptorSha: Schema.String.annotations(describe("Changes whenever the build behind a version changes.")),
  syncedAt: Schema.String
}).annotations({
  identifier: "TemplateView",
  ...describe("Build-level fields describe the newest build of the first variant.")
})

export const CatalogueEntry = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  family: Schema.String,
  description: Schema.String,
  variants: Schema.Array(Schema.String)
}).annotations({ identifier: "CatalogueEntry" })

export const ShelfEntry = Schema.Struct({
  templateId: Schema.String,
  templateName: Schema.String,
  variant: Schema.String,
  version: Schema.String,
  keys: Schema.Number.annotations(describe("How many inputs the build takes."))
}).annotations({ identifier: "ShelfEntry" })

export const ReferenceListing = Schema.Struct({
  templateId: Schema.String,
  name: Schema.String,
  variants: Schema.Array(Schema.Struct({
    name: Schema.String,
    versions: Schema.Array(Schema.Struct({ version: Schema.String, ratios: Schema.Array(Ratio) }))
  }))
}).annotations({ identifier: "ReferenceListing" })

export const BuildQuery = Schema.Struct({
  variant: Schema.optional(Schema.String).annotations(describe("Variant name; default the first variant.")),
  version: Schema.optional(Schema.String).annotations(
    describe("`latest` (default, the newest build) or an exact `major.minor.patch`.")
  )
})
