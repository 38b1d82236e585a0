import type { Field } from "./format/Fields.js"
import { isRecord } from "./Validate.js"

/** Cuts a sample down to what a build accepts: unknown inputs dropped, lists shortened to their limit. */
export const fitToFields = (fields: ReadonlyArray<Field>, value: unknown): unknown => {
  if (!isRecord(value)) return value
  const fitted: Record<string, unknown> = {}
  for (const field of fields) {
    const child = value[field.key]
    if (child !== undefined) fitted[field.key] = fitField(field, child)
  }
  return fitted
}

const fitField = (field: Field, value: unknown): unknown => {
  switch (field.type) {
    case "group":
      return fitToFields(field.fields, value)
    case "list":
      return Array.isArray(value) ? value.slice(0, field.maxItems).map((item) => fitField(field.item, item)) : value
    default:
      return value
  }
}

/** Fits a whole content document, locale copy included. */
export const fitContent = (fields: ReadonlyArray<Field>, content: unknown): unknown => {
  const fitted = fitToFields(fields, content)
  if (!isRecord(content) || !isRecord(content["locales"]) || !isRecord(fitted)) return fitted
  const copies = Object.entries(content["locales"]).map(([locale, copy]) => [locale, fitToFields(fields, copy)])
  return { ...fitted, locales: Object.fromEntries(copies) }
}
