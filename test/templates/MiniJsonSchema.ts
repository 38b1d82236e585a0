import { decimalPlaces, jsonPointer } from "../../src/templates/Validate.js"

type Schema = { readonly [keyword: string]: unknown }

export interface SchemaError {
  readonly path: string
  readonly keyword: string
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const asSchema = (value: unknown): Schema => (isObject(value) ? value : {})

const typeOk = (type: unknown, value: unknown): boolean => {
  switch (type) {
    case "string":
      return typeof value === "string"
    case "number":
      return typeof value === "number"
    case "array":
      return Array.isArray(value)
    case "object":
      return isObject(value)
    default:
      return true
  }
}

/**
 * The subset of draft 2020-12 the registry emits, checked independently of the registry's own validator, plus the
 * `x-decimals` annotation. Returns the pointers and keywords of every failure.
 */
export const checkSchema = (
  schema: Schema,
  value: unknown,
  path: ReadonlyArray<string | number> = []
): ReadonlyArray<SchemaError> => {
  const errors: Array<SchemaError> = []
  const fail = (keyword: string, at = path) => errors.push({ path: jsonPointer(at), keyword })
  if (!typeOk(schema["type"], value)) {
    fail("type")
    return errors
  }
  if (typeof value === "string") {
    const length = [...value].length
    if (typeof schema["minLength"] === "number" && length < schema["minLength"]) fail("minLength")
    if (typeof schema["maxLength"] === "number" && length > schema["maxLength"]) fail("maxLength")
    if (typeof schema["pattern"] === "string" && !new RegExp(schema["pattern"], "u").test(value)) fail("pattern")
    if (Array.isArray(schema["enum"]) && !schema["enum"].includes(value)) fail("enum")
  }
  if (typeof value === "number" && typeof schema["x-decimals"] === "number") {
    if (decimalPlaces(value) > schema["x-decimals"]) fail("decimals")
  }
  if (Array.isArray(value)) {
    if (typeof schema["maxItems"] === "number" && value.length > schema["maxItems"]) fail("maxItems")
    value.forEach((item, index) => errors.push(...checkSchema(asSchema(schema["items"]), item, [...path, index])))
  }
  if (isObject(value)) {
    const properties = asSchema(schema["properties"])
    const required = Array.isArray(schema["required"]) ? schema["required"] : []
    for (const key of required) if (!(key in value)) fail("required", [...path, String(key)])
    for (const [key, child] of Object.entries(value)) {
      const at = [...path, key]
      const names = asSchema(schema["propertyNames"])["enum"]
      if (Array.isArray(names) && !names.includes(key)) fail("locale", at)
      if (Object.hasOwn(properties, key)) errors.push(...checkSchema(asSchema(properties[key]), child, at))
      else if (schema["additionalProperties"] === false) fail("additionalProperties", at)
      else if (isObject(schema["additionalProperties"])) {
        errors.push(...checkSchema(schema["additionalProperties"], child, at))
      }
    }
  }
  return errors
}
