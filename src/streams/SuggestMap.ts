import { contentFields, type Field } from "../templates/format/Fields.js"
import type { Build } from "../templates/format/Template.js"

export interface TemplateFieldInfo {
  readonly key: string
  readonly type: string
  readonly label: string
  readonly required: boolean
  readonly maxLength?: number
}

const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1")

/** Every input a map may target: leaves and whole lists, as JSON Pointers into the input document. */
export const templateFields = (build: Build): ReadonlyArray<TemplateFieldInfo> => {
  const walk = (fields: ReadonlyArray<Field>, prefix: string, required: boolean): Array<TemplateFieldInfo> =>
    fields.flatMap((field) => {
      const key = `${prefix}/${escape(field.key)}`
      if (field.type === "group") return walk(field.fields, key, required && field.required)
      const info: TemplateFieldInfo = {
        key,
        type: field.type,
        label: field.label,
        required: required && field.required,
        ...(field.type === "text" ? { maxLength: field.maxLength } : {})
      }
      return [info]
    })
  return walk(contentFields(build.limits), "", true)
}

const synonyms: ReadonlyMap<string, ReadonlyArray<string>> = new Map([
  ["headline", ["headline", "title", "heading", "name"]],
  ["subline", ["subline", "subtitle", "summary", "description", "lede"]],
  ["figures", ["figures", "metrics", "stats", "numbers", "values"]],
  ["bullets", ["bullets", "points", "items", "highlights"]],
  ["images", ["images", "pictures", "photos"]],
  ["source", ["source", "provider", "credit"]],
  ["hashtags", ["hashtags", "tags"]]
])

const normalize = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "")

/** Top-level-first list of the sample's values by pointer, so shallower matches win. */
const sampleEntries = (sample: unknown): Array<[string, unknown]> => {
  const out: Array<[string, unknown]> = []
  const visit = (value: unknown, pointer: string, depth: number) => {
    if (depth > 0) out.push([pointer, value])
    if (depth < 4 && typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) visit(v, `${pointer}/${escape(k)}`, depth + 1)
    }
  }
  visit(sample, "", 0)
  return out.sort((a, b) => a[0].split("/").length - b[0].split("/").length)
}

const fits = (field: TemplateFieldInfo, value: unknown) =>
  field.type === "list"
    ? Array.isArray(value)
    : field.type === "number"
    ? typeof value === "number" || typeof value === "string"
    : typeof value !== "object" || value === null

/** A map proposal from the stream's last payload: each template input matched to a sample value by name. */
export const suggestMap = (build: Build, sample: unknown): Record<string, { from: string }> => {
  const entries = sampleEntries(sample)
  const suggestion: Record<string, { from: string }> = {}
  for (const field of templateFields(build)) {
    const name = field.key.split("/").pop() ?? ""
    const wanted = new Set((synonyms.get(name) ?? [name]).map(normalize))
    const match = entries.find(([pointer, value]) =>
      wanted.has(normalize(pointer.split("/").pop() ?? "")) && fits(field, value)
    )
    if (match !== undefined) suggestion[field.key] = { from: match[0] }
  }
  return suggestion
}
