/** Just enough of JSON Schema (as `OpenApi.fromApi` writes it) to draw plausible values and break them on purpose. */
export type JsonSchema = Record<string, any>

export type Doc = { readonly components?: { readonly schemas?: Record<string, JsonSchema> } }

/** mulberry32: the same seed draws the same cases on every run. */
export const prng = (seed: number) => {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    pick: <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!,
    sample: <A>(items: ReadonlyArray<A>, n: number): Array<A> => {
      const copy = [...items]
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1))
        ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
      }
      return copy.slice(0, n)
    }
  }
}

export const resolve = (doc: Doc, schema: JsonSchema | undefined): JsonSchema => {
  if (schema === undefined) return {}
  const ref = schema["$ref"]
  if (typeof ref !== "string") return schema
  const { $ref: _, ...rest } = schema
  return { ...resolve(doc, doc.components?.schemas?.[ref.split("/").pop()!]), ...rest }
}

const nonNull = (doc: Doc, schema: JsonSchema) => {
  const s = resolve(doc, schema)
  const members: Array<JsonSchema> = s["anyOf"] ?? s["oneOf"] ?? []
  return members.length === 0 ? s : resolve(doc, members.find((m) => resolve(doc, m)["type"] !== "null") ?? members[0])
}

/** The kind of value a schema wants, or undefined for `unknown` (anything goes, so nothing is wrong for it). */
export const kindOf = (doc: Doc, schema: JsonSchema): string | undefined => {
  const s = nonNull(doc, schema)
  if (Array.isArray(s["enum"])) return typeof s["enum"][0]
  if (typeof s["type"] === "string") return s["type"] === "integer" ? "number" : s["type"]
  if (s["properties"] !== undefined) return "object"
  return undefined
}

/** A value shaped like the schema wants (it may still be refused for what it says, never for its shape). */
export const sample = (doc: Doc, schema: JsonSchema, depth = 0): unknown => {
  const s = nonNull(doc, schema)
  if (Array.isArray(s["enum"])) return s["enum"][0]
  if ("const" in s) return s["const"]
  switch (kindOf(doc, s)) {
    case "string":
      return "x".repeat(Math.max(1, s["minLength"] ?? 1))
    case "number":
      return Math.max(1, s["minimum"] ?? 1)
    case "boolean":
      return true
    case "array":
      return depth > 4 ? [] : Array.from({ length: s["minItems"] ?? 0 }, () => sample(doc, s["items"] ?? {}, depth + 1))
    case "object": {
      const required: Array<string> = s["required"] ?? []
      const properties: Record<string, JsonSchema> = s["properties"] ?? {}
      return Object.fromEntries(
        required.map((name) => [name, depth > 4 ? {} : sample(doc, properties[name] ?? {}, depth + 1)])
      )
    }
    default:
      return {}
  }
}

/** Values of every kind but the one wanted. */
export const wrongValues = (kind: string): Array<unknown> =>
  [
    { kind: "string", value: "not-the-right-kind" },
    { kind: "number", value: 12345 },
    { kind: "boolean", value: false },
    { kind: "object", value: { nested: true } },
    { kind: "array", value: [1, "two"] },
    { kind: "null", value: null }
  ].filter((v) => v.kind !== kind).map((v) => v.value)

export const requestSchema = (operation: JsonSchema) => {
  const content: Record<string, JsonSchema> = operation["requestBody"]?.["content"] ?? {}
  return { types: Object.keys(content), schema: Object.values(content)[0]?.["schema"] as JsonSchema | undefined }
}
