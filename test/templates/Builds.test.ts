import { describe, expect, it } from "vitest"
import { allRatios } from "../../src/drawing/Ratios.js"
import { describeBuild } from "../../src/templates/Describe.js"
import { contentFields } from "../../src/templates/format/Fields.js"
import type { ResolvedBuild } from "../../src/templates/format/Template.js"
import type { KeyNode } from "../../src/templates/Keys.js"
import { listTemplates } from "../../src/templates/TemplateRegistry.js"
import { isRecord, validateContent } from "../../src/templates/Validate.js"
import { checkSchema } from "./MiniJsonSchema.js"

const builds: ReadonlyArray<ResolvedBuild> = listTemplates().flatMap((template) =>
  template.variants.flatMap((variant) => variant.builds.map((build) => ({ template, variant, build })))
)

const name = ({ build, template, variant }: ResolvedBuild) => `${template.name} ${variant.name} ${build.version}`

type Leaf = readonly [path: string, constraints: string]

const constraintsOf = (limits: { [key: string]: unknown }): string =>
  JSON.stringify(["maxLength", "maxItems", "decimals", "values", "required"].map((key) => limits[key] ?? null))

const keyLeaves = (nodes: ReadonlyArray<KeyNode>, prefix: string, parents: string): Array<Leaf> =>
  nodes.flatMap((node): Array<Leaf> => {
    const path = `${prefix}/${node.key}`
    if (node.keys !== undefined) return keyLeaves(node.keys, path, "")
    if (node.item !== undefined) {
      return [
        [`${path}#list`, constraintsOf({ maxItems: node.maxItems, required: node.required })],
        ...keyLeaves([{ ...node.item, key: "[]" }], path, "")
      ]
    }
    const limits = { maxLength: node.maxLength, decimals: node.decimals, values: node.values, required: node.required }
    return [[`${path}${parents}`, constraintsOf(limits)]]
  })

type Schema = { readonly [keyword: string]: unknown }

const asSchema = (value: unknown): Schema => (isRecord(value) ? value : {})

const schemaLeaves = (schema: Schema, path: string, required: boolean): Array<Leaf> => {
  if (schema["type"] === "object") {
    const needed: ReadonlyArray<unknown> = Array.isArray(schema["required"]) ? schema["required"] : []
    return Object.entries(asSchema(schema["properties"]))
      .flatMap(([key, child]) => schemaLeaves(asSchema(child), `${path}/${key}`, needed.includes(key)))
  }
  if (schema["type"] === "array") {
    return [
      [`${path}#list`, constraintsOf({ maxItems: schema["maxItems"], required })],
      ...schemaLeaves(asSchema(schema["items"]), `${path}/[]`, true)
    ]
  }
  const limits = {
    maxLength: schema["maxLength"],
    decimals: schema["x-decimals"],
    values: schema["enum"],
    required
  }
  return [[path, constraintsOf(limits)]]
}

describe("every shipped build", () => {
  it("there are three templates with two variants of two or more builds each", () => {
    expect(listTemplates()).toHaveLength(3)
    for (const template of listTemplates()) {
      expect(template.id).toMatch(/^tpl_[0-9a-f]{12}$/)
      expect(template.variants.length).toBeGreaterThanOrEqual(2)
      for (const variant of template.variants) expect(variant.builds.length).toBeGreaterThanOrEqual(2)
    }
  })

  it.each(builds.map((resolved) => [name(resolved), resolved] as const))("%s", (_, resolved) => {
    const { build, template, variant } = resolved
    const description = describeBuild(resolved)
    expect(description).toMatchObject({
      templateId: template.id,
      templateName: template.name,
      variant: variant.name,
      version: build.version,
      ratios: build.ratios
    })
    expect(description.example).toHaveProperty("locales")
    expect(validateContent(build, description.example)).toEqual([])
    expect(checkSchema(description.jsonSchema, description.example)).toEqual([])
    expect(description.jsonSchema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      additionalProperties: false,
      examples: [description.example]
    })

    const fromKeys = keyLeaves(description.keys.keys, "", "").sort()
    const { locales: _locales, ...properties } = asSchema(description.jsonSchema["properties"])
    const fromSchema = schemaLeaves({ ...description.jsonSchema, properties }, "", true).sort()
    expect(fromKeys).toEqual(fromSchema)
    expect(fromKeys.map(([path]) => path)).toContain("/clipData/headline")
    expect(description.keys.keys.map((node) => node.key)).toEqual(contentFields(build.limits).map((f) => f.key))

    expect(build.version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(build.ratios.every((ratio) => allRatios.includes(ratio))).toBe(true)
    expect(build.fps).toBe(30)
    expect(build.duration.mode).toBe("fixed")
    const { enter, outro, stagger } = build.look.timing
    const items = Math.max(build.limits.figures, build.limits.bullets)
    expect(enter + stagger * items + outro).toBeLessThan(build.duration.frames)
  })

  it("lists builds oldest first with strictly increasing versions", () => {
    for (const template of listTemplates()) {
      for (const variant of template.variants) {
        const versions = variant.builds.map((build) => build.version)
        const numeric = (version: string) => version.split(".").reduce((sum, part) => sum * 1000 + Number(part), 0)
        expect([...versions].sort((a, b) => numeric(a) - numeric(b))).toEqual(versions)
        expect(new Set(versions).size).toBe(versions.length)
      }
    }
  })

  it("leaf examples in the keys tree come from the worked example", () => {
    const description = describeBuild(builds[0]!)
    const clipData = description.keys.keys[0]!
    expect(clipData.keys?.find((node) => node.key === "headline")?.example)
      .toBe("European stocks close higher as energy rallies")
    expect(clipData.keys?.find((node) => node.key === "figures")?.item?.keys?.[1]).toMatchObject({
      key: "value",
      type: "number",
      decimals: 4,
      example: 512.37
    })
  })
})
