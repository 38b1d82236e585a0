import type { Field, GroupField } from "./format/Fields.js"
import { locales } from "./Locales.js"

export type JsonSchema = { readonly [keyword: string]: unknown }

export const jsonSchemaDialect = "https://json-schema.org/draft/2020-12/schema"

/** `relaxed` > 0 drops `required` at this level and counts down through nested groups, as for locale copy. */
export const fieldSchema = (field: Field, relaxed = 0): JsonSchema => {
  const title = field.label
  switch (field.type) {
    case "text":
      return {
        type: "string",
        title,
        ...(field.required ? { minLength: 1 } : {}),
        maxLength: field.maxLength,
        ...(field.pattern === undefined ? {} : { pattern: field.pattern.regex })
      }
    case "number":
      // Not `multipleOf`: with binary floats, 1.2345 is no multiple of 0.0001 for common validators.
      return {
        type: "number",
        title,
        description: `at most ${field.decimals} decimal places`,
        "x-decimals": field.decimals
      }
    case "enum":
      return { type: "string", title, enum: field.values }
    case "list":
      return { type: "array", title, maxItems: field.maxItems, items: fieldSchema(field.item) }
    case "group":
      return objectSchema(title, field.fields, relaxed)
  }
}

const propertiesOf = (fields: ReadonlyArray<Field>, relaxed: number): Record<string, JsonSchema> =>
  Object.fromEntries(fields.map((field) => [field.key, fieldSchema(field, Math.max(0, relaxed - 1))]))

const requiredOf = (fields: ReadonlyArray<Field>, relaxed: number): ReadonlyArray<string> =>
  relaxed > 0 ? [] : fields.filter((field) => field.required).map((field) => field.key)

export const objectSchema = (title: string, fields: ReadonlyArray<Field>, relaxed = 0): JsonSchema => ({
  type: "object",
  title,
  properties: propertiesOf(fields, relaxed),
  required: requiredOf(fields, relaxed),
  additionalProperties: false
})

/** The whole content document of a build, `locales` included, as a draft 2020-12 schema. */
export const contentSchema = (title: string, fields: ReadonlyArray<GroupField>, example: unknown): JsonSchema => ({
  $schema: jsonSchemaDialect,
  type: "object",
  title,
  properties: {
    ...propertiesOf(fields, 0),
    locales: {
      type: "object",
      title: "Copy per locale, laid over the default",
      propertyNames: { enum: locales },
      additionalProperties: objectSchema("Locale copy", fields, 2)
    }
  },
  required: requiredOf(fields, 0),
  additionalProperties: false,
  examples: [example]
})
