// Example values made from JSON Schemas of the OpenAPI document, for docs/api.md: a request body that has every
// required field, and an answer with every field, lists of one item, deep nesting cut to its required fields.
import { instantFor, numberFor, payload, recordKey, stringFor, wholeFor } from "./ExampleValues.js"

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
  readonly minLength?: number
  readonly maxLength?: number
  readonly minimum?: number
  readonly maximum?: number
  readonly minItems?: number
  readonly title?: string
}

interface Components {
  readonly components?: { readonly schemas?: Record<string, Schema> }
}

// OpenAPI 3.1 lets a reference carry its own keywords beside it (a refinement's bounds); they narrow the target.
const resolve = (schema: Schema, document: Components): Schema => {
  if (schema.$ref === undefined) return schema
  const { $ref, ...beside } = schema
  return { ...document.components?.schemas?.[$ref.split("/").pop() ?? ""], ...beside }
}

const typeOf = (schema: Schema): string | undefined => {
  if (typeof schema.type === "string") return schema.type
  return schema.type?.find((t) => t !== "null")
}

// Below this depth an object shows its required fields only and a list is empty, so recursive schemas end.
const FULL_DEPTH = 6

const fits = (schema: Schema, value: string) =>
  (schema.pattern === undefined || new RegExp(schema.pattern).test(value)) &&
  value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity)

const stringExample = (schema: Schema, parent: string, name: string): string => {
  if (schema.format === "date-time") return instantFor(name)
  if (schema.format === "uri") return stringFor(parent, name, false) ?? "https://clipwright.example/"
  const colour = schema.pattern?.includes("#") === true
  const known = stringFor(parent, name, colour)
  if (known !== undefined && fits(schema, known)) return known
  const shaped = ["9x16", "01JD5K3Q8W2M0B7N4C6V9X1Z3R", "st_015711ef0981", "dana@acme.example"]
  const fallback = (known ?? "Acme Coffee").slice(0, schema.maxLength)
  return schema.pattern === undefined ? fallback : shaped.find((v) => fits(schema, v)) ?? fallback
}

const numberExample = (schema: Schema, parent: string, name: string, integer: boolean): number => {
  const low = schema.minimum ?? -Infinity
  const high = schema.maximum ?? Infinity
  const known = numberFor(parent, name)
  if (known !== undefined && known >= low && known <= high && (!integer || Number.isInteger(known))) return known
  if (low > 1 || high < 1) return Number.isFinite(high) ? Math.round((Math.max(low, 0) + high) / 2) : low
  return 1
}

// A field typed as any JSON value: the string a name suggests, else an event payload.
const anyValue = (parent: string, name: string): unknown => stringFor(parent, name, name === "brand") ?? payload()

const example = (
  given: Schema | undefined,
  document: Components,
  parent: string,
  name: string,
  depth: number,
  requiredOnly: boolean
): unknown => {
  if (given === undefined) return {}
  const schema = resolve(given, document)
  const here = given.$ref?.split("/").pop() ?? name
  if (schema.examples !== undefined && schema.examples.length > 0) return schema.examples[0]
  if (schema.example !== undefined) return schema.example
  if (schema.const !== undefined) return schema.const
  if (wholeFor(parent, name) !== undefined) return wholeFor(parent, name)
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum.find((v) => v !== null) ?? null
  const choices = schema.anyOf ?? schema.oneOf
  if (choices !== undefined) {
    const first = choices.find((c) => typeOf(resolve(c, document)) !== "null") ?? choices[0]
    return example(first, document, parent, name, depth, requiredOnly)
  }
  if (schema.allOf !== undefined && schema.allOf.length > 0) {
    return Object.assign(
      {},
      ...schema.allOf.map((part) => example(part, document, parent, name, depth, requiredOnly) as object)
    )
  }
  switch (typeOf(schema)) {
    case "string":
      return stringExample(schema, parent, name)
    case "integer":
    case "number":
      return numberExample(schema, parent, name, typeOf(schema) === "integer")
    case "boolean":
      return true
    case "null":
      return null
    case "array": {
      if (depth > FULL_DEPTH && (schema.minItems ?? 0) === 0) return []
      const item = example(schema.items, document, parent, name, depth + 1, requiredOnly)
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item)
    }
    case "object":
    case undefined: {
      const properties = Object.entries(schema.properties ?? {})
      if (properties.length === 0 && schema.additionalProperties === undefined && typeOf(schema) === undefined) {
        return anyValue(parent, name)
      }
      const shown = requiredOnly || depth > FULL_DEPTH
        ? properties.filter(([key]) => schema.required?.includes(key))
        : properties
      const out: Record<string, unknown> = {}
      for (const [key, value] of shown) out[key] = example(value, document, here, key, depth + 1, requiredOnly)
      const anything = typeof schema.additionalProperties === "object" &&
        Object.keys(schema.additionalProperties).length === 0
      if (properties.length === 0 && anything) return anyValue(parent, name)
      if (properties.length === 0 && typeof schema.additionalProperties === "object") {
        // A record's values are looked up as `name.*`: `labels.channelId.*` is a channel's name.
        out[recordKey(name)] = example(schema.additionalProperties, document, name, "*", depth + 1, requiredOnly)
      }
      return out
    }
    default:
      return {}
  }
}

/** A query parameter's value, as it goes into the URL. */
export const parameterExample = (schema: Schema | undefined, document: Components, name: string): string => {
  const value = example(schema, document, "query", name, 0, true)
  return encodeURIComponent(typeof value === "string" ? value : JSON.stringify(value))
}

/** A body with the required fields only: the least a call needs. */
export const requestExample = (schema: Schema | undefined, document: Components, group = ""): unknown => {
  const value = example(schema, document, "", group, 0, true)
  // A body whose every field is optional shows them all: an empty one would say nothing.
  const empty = typeof value === "object" && value !== null && Object.keys(value).length === 0
  return empty ? example(schema, document, "", group, 0, false) : value
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
export const answerExample = (schema: Schema | undefined, document: Components, group = ""): unknown =>
  example(schema, document, "", group, 0, false)

/** An answer with every field, laid out for the page. */
export const responseExample = (schema: Schema | undefined, document: Components, group = ""): string =>
  format(answerExample(schema, document, group), "")
