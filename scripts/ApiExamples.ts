// Example values made from JSON Schemas of the OpenAPI document, for docs/api.md: a request body that has every
// required field, and an answer with every field, lists of one item, nesting cut at a depth.

export interface Schema {
  readonly $ref?: string
  readonly type?: string | ReadonlyArray<string>
  readonly properties?: Record<string, Schema>
  readonly required?: ReadonlyArray<string>
  readonly additionalProperties?: boolean | Schema
  readonly items?: Schema
  readonly anyOf?: ReadonlyArray<Schema>
  readonly oneOf?: ReadonlyArray<Schema>
  readonly allOf?: ReadonlyArray<Schema>
  readonly enum?: ReadonlyArray<unknown>
  readonly const?: unknown
  readonly default?: unknown
  readonly examples?: ReadonlyArray<unknown>
  readonly example?: unknown
  readonly format?: string
  readonly pattern?: string
  readonly minimum?: number
  readonly minItems?: number
  readonly title?: string
}

interface Components {
  readonly components?: { readonly schemas?: Record<string, Schema> }
}

const ULID = "01JD5K3Q8W2M0B7N4C6V9X1Z3R"

/** A value a reader recognises for a field of this name, where the schema says no more than "a string". */
const byName = (name: string): string | undefined => {
  const n = name.toLowerCase()
  if (n === "templateid") return "tpl_3a7c91e04b5d"
  if (n === "streamid") return "st_0123456789ab"
  if (n === "feedid") return "fd_4b1e9c2a7d03"
  if (n === "id" || /Id$/.test(name)) return ULID
  if (/[a-z]At$/.test(name) || ["scheduledfor", "until", "since"].includes(n)) {
    return "2026-12-01T08:00:00Z"
  }
  if (n.includes("url") || n === "permalink") return "https://example.com/…"
  if (n === "email" || n.endsWith("email")) return "ops@acme.example"
  if (n === "locale") return "en"
  if (n === "ratio") return "9x16"
  if (n === "version" || n === "templateversion") return "1.1.0"
  if (n === "sourceslug") return "markets"
  if (n === "formatslug") return "index-close"
  if (n === "timezone" || n === "tz") return "Europe/Berlin"
  if (n.includes("color") || n === "brand") return "#1F6FEB"
  if (n === "name" || n === "title") return "Morning"
  return undefined
}

const resolve = (schema: Schema, document: Components): Schema => {
  if (schema.$ref === undefined) return schema
  const name = schema.$ref.split("/").pop() ?? ""
  return document.components?.schemas?.[name] ?? {}
}

const typeOf = (schema: Schema): string | undefined => {
  if (typeof schema.type === "string") return schema.type
  return schema.type?.find((t) => t !== "null")
}

const example = (
  given: Schema | undefined,
  document: Components,
  name: string,
  depth: number,
  requiredOnly: boolean
): unknown => {
  if (given === undefined) return {}
  const schema = resolve(given, document)
  if (schema.examples !== undefined && schema.examples.length > 0) return schema.examples[0]
  if (schema.example !== undefined) return schema.example
  if (schema.const !== undefined) return schema.const
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum.find((v) => v !== null) ?? null
  const choices = schema.anyOf ?? schema.oneOf
  if (choices !== undefined) {
    const first = choices.find((c) => typeOf(resolve(c, document)) !== "null") ?? choices[0]
    return example(first, document, name, depth, requiredOnly)
  }
  if (schema.allOf !== undefined && schema.allOf.length > 0) {
    return Object.assign(
      {},
      ...schema.allOf.map((part) => example(part, document, name, depth, requiredOnly) as object)
    )
  }
  if (depth > 5) return "…"
  switch (typeOf(schema)) {
    case "string":
      return schema.format === "date-time" ? "2026-12-01T08:00:00Z" : byName(name) ?? "text"
    case "integer":
    case "number":
      return schema.minimum !== undefined && schema.minimum > 1 ? schema.minimum : 1
    case "boolean":
      return true
    case "null":
      return null
    case "array":
      return [example(schema.items, document, name.replace(/s$/, ""), depth + 1, requiredOnly)]
    case "object":
    case undefined: {
      const properties = Object.entries(schema.properties ?? {})
      const shown = requiredOnly
        ? properties.filter(([key]) => schema.required?.includes(key))
        : properties
      const out: Record<string, unknown> = {}
      for (const [key, value] of shown) out[key] = example(value, document, key, depth + 1, requiredOnly)
      if (properties.length === 0 && typeof schema.additionalProperties === "object") {
        out["key"] = example(schema.additionalProperties, document, "key", depth + 1, requiredOnly)
      }
      if (properties.length === 0 && schema.additionalProperties === undefined && typeOf(schema) === undefined) {
        return "…"
      }
      return out
    }
    default:
      return "…"
  }
}

/** A body with the required fields only: the least a call needs. */
export const requestExample = (schema: Schema | undefined, document: Components): unknown => {
  const value = example(schema, document, "", 0, true)
  if (value === "…") return {}
  // A body whose every field is optional shows them all: an empty one would say nothing.
  const empty = typeof value === "object" && value !== null && Object.keys(value).length === 0
  return empty ? example(schema, document, "", 0, false) : value
}

/** Objects short enough stay on one line; the rest is indented two spaces a level. */
const format = (value: unknown, indent: string): string => {
  const flat = JSON.stringify(value)
  if (flat === undefined) return "null"
  if (flat.length + indent.length <= 100 || value === null || typeof value !== "object") return flat
  const inner = `${indent}  `
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + format(v, inner)).join(",\n")}\n${indent}]`
  const entries = Object.entries(value as Record<string, unknown>)
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${format(v, inner)}`).join(",\n")}\n${indent}}`
}

/** An answer with every field. */
export const responseExample = (schema: Schema | undefined, document: Components): string =>
  format(example(schema, document, "", 0, false), "")
