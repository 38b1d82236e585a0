import { Either, Option } from "effect"
import { describe, expect, it } from "vitest"
import { describeBuild } from "../../src/templates/Describe.js"
import { buildSha, canonicalJson, descriptorSha } from "../../src/templates/Descriptor.js"
import type { Template } from "../../src/templates/format/Template.js"
import { localize } from "../../src/templates/Localize.js"
import { briefing } from "../../src/templates/shipped/Briefing.js"
import { marketMove } from "../../src/templates/shipped/MarketMove.js"
import { findTemplate, listTemplates, registrySyncedAt, resolveBuild } from "../../src/templates/TemplateRegistry.js"
import type { BuildSelector } from "../../src/templates/TemplateRegistry.js"
import { catalogueEntry, referenceListing, shelfEntries, workspaceView } from "../../src/templates/Views.js"

const picked = (templateId: string, selector?: BuildSelector) =>
  Either.map(resolveBuild(templateId, selector), ({ build, variant }) => `${variant.name}@${build.version}`)

const failure = (templateId: string, selector?: BuildSelector) =>
  Either.match(resolveBuild(templateId, selector), { onLeft: (error) => error._tag, onRight: () => "resolved" })

describe("registry", () => {
  it("lists three templates with distinct ids and finds them", () => {
    const ids = listTemplates().map((template) => template.id)
    expect(ids).toEqual(["tpl_3a7c91e04b5d", "tpl_8e2f60b9d14a", "tpl_c51d0a7e3f92"])
    expect(Option.getOrThrow(findTemplate("tpl_8e2f60b9d14a")).name).toBe("Briefing")
    expect(Option.isNone(findTemplate("tpl_000000000000"))).toBe(true)
  })

  it("resolves the first variant and newest build by default", () => {
    expect(picked(marketMove.id)).toEqual(Either.right("standard@1.1.0"))
    expect(picked(marketMove.id, { version: "latest" })).toEqual(Either.right("standard@1.1.0"))
    expect(picked(marketMove.id, { version: "1.0.0" })).toEqual(Either.right("standard@1.0.0"))
    expect(picked(marketMove.id, { variant: "compact" })).toEqual(Either.right("compact@1.0.1"))
    expect(picked(briefing.id, { variant: "standard", version: "1.1.0" })).toEqual(Either.right("standard@1.1.0"))
    expect(picked(briefing.id, { variant: undefined, version: undefined })).toEqual(Either.right("standard@1.2.0"))
  })

  it("names what failed", () => {
    expect(failure("tpl_000000000000")).toBe("UnknownTemplate")
    expect(failure(marketMove.id, { variant: "huge" })).toBe("UnknownVariant")
    expect(failure(marketMove.id, { variant: "huge", version: "1" })).toBe("UnknownVariant")
    for (const version of ["1", "1.0", "v1.0.0", "1.0.0-beta", "01.0.0", "1.0.0.0", "", "LATEST"]) {
      expect(failure(marketMove.id, { version })).toBe("InvalidVersion")
    }
    expect(failure(marketMove.id, { version: "9.9.9" })).toBe("UnknownVersion")
    expect(failure(marketMove.id, { variant: "compact", version: "1.1.0" })).toBe("UnknownVersion")
    expect(resolveBuild(marketMove.id, { version: "2.0.0" })).toEqual(
      Either.left({ _tag: "UnknownVersion", templateId: marketMove.id, variant: "standard", version: "2.0.0" })
    )
  })
})

describe("descriptorSha", () => {
  const edited = (template: Template, frames: number): Template => ({
    ...template,
    variants: template.variants.map((variant, index) =>
      index === 1
        ? { ...variant, builds: variant.builds.map((build) => ({ ...build, duration: { mode: "fixed", frames } })) }
        : variant
    )
  })

  it("is a stable sha256, different per template, and follows every build", () => {
    const shas = listTemplates().map(descriptorSha)
    expect(shas.every((sha) => /^[0-9a-f]{64}$/.test(sha))).toBe(true)
    expect(new Set(shas).size).toBe(3)
    expect(listTemplates().map(descriptorSha)).toEqual(shas)
    expect(descriptorSha({ ...marketMove, description: "Reworded" })).toBe(descriptorSha(marketMove))
    expect(descriptorSha(edited(marketMove, 181))).not.toBe(descriptorSha(marketMove))
  })

  it("has a per-build sha that ignores key order", () => {
    const builds = listTemplates().flatMap((t) => t.variants.flatMap((v) => v.builds))
    expect(new Set(builds.map(buildSha)).size).toBe(builds.length)
    expect(canonicalJson({ b: [1, { d: 1, c: "x" }], a: null })).toBe("{\"a\":null,\"b\":[1,{\"c\":\"x\",\"d\":1}]}")
  })
})

describe("response shapes", () => {
  it("builds the workspace view from the newest build of the first variant", () => {
    const view = workspaceView(marketMove)
    expect(view).toMatchObject({
      templateId: marketMove.id,
      offered: true,
      version: "1.1.0",
      name: "Market move",
      contentStyle: "figures-led",
      family: "markets",
      milestone: 3,
      ratios: ["9x16", "4x5", "1x1", "16x9"],
      duration: { mode: "fixed", frames: 300 },
      subvariants: ["dark", "light"],
      variants: [{ name: "standard", versions: ["1.0.0", "1.1.0"] }, { name: "compact", versions: ["1.0.0", "1.0.1"] }],
      descriptorSha: descriptorSha(marketMove),
      syncedAt: registrySyncedAt
    })
    expect(view?.inputSchema).toEqual(describeBuild(Either.getOrThrow(resolveBuild(marketMove.id))).jsonSchema)
    expect(new Date(registrySyncedAt).toISOString()).toBe(registrySyncedAt)
  })

  it("builds catalogue blocks, shelf entries and reference listings", () => {
    expect(catalogueEntry(briefing)).toEqual({
      id: briefing.id,
      name: "Briefing",
      family: "news",
      description: briefing.description,
      variants: ["standard", "compact"]
    })
    const shelf = shelfEntries()
    expect(shelf.map((entry) => `${entry.templateName}/${entry.variant}@${entry.version}`)).toEqual([
      "Market move/standard@1.1.0",
      "Market move/compact@1.0.1",
      "Briefing/standard@1.2.0",
      "Briefing/compact@1.1.0",
      "Scoreboard/standard@1.1.0",
      "Scoreboard/compact@2.0.0"
    ])
    expect(shelf[0]).toMatchObject({ templateId: marketMove.id, keys: 15 })
    expect(shelf[1]?.keys).toBe(14)
    expect(shelf.every((entry) => Number.isInteger(entry.keys))).toBe(true)
    expect(referenceListing(marketMove)).toEqual({
      templateId: marketMove.id,
      name: "Market move",
      variants: [
        {
          name: "standard",
          versions: [{ version: "1.0.0", ratios: ["9x16", "1x1", "16x9"] }, {
            version: "1.1.0",
            ratios: ["9x16", "4x5", "1x1", "16x9"]
          }]
        },
        {
          name: "compact",
          versions: [{ version: "1.0.0", ratios: ["9x16", "1x1"] }, {
            version: "1.0.1",
            ratios: ["9x16", "4x5", "1x1"]
          }]
        }
      ]
    })
  })
})

describe("localize", () => {
  const content = marketMove.sample

  it("lays a locale's copy over the default and drops locales", () => {
    const german = localize(content, "de")
    expect(german).not.toHaveProperty("locales")
    expect(german.clipData.headline).toBe("Europas Börsen schließen fester, Energiewerte gefragt")
    expect(german.clipData.figures).toEqual(content.clipData.figures)
    expect(german.metaData).toEqual({ ...content.metaData, title: "Europas Börsen schließen fester" })
  })

  it("replaces lists whole and falls back to the bare language, then the default", () => {
    const french = localize(briefing.sample, "fr")
    expect(french.clipData.bullets).toEqual(briefing.sample.locales?.["fr"]?.clipData?.bullets)
    expect(french.clipData.bullets).toHaveLength(3)
    expect(localize(content, "pt-BR").clipData.headline).toBe("Bolsas europeias fecham em alta com energia")
    expect(localize({ ...content, locales: { pt: { clipData: { headline: "Olá" } } } }, "pt-BR").clipData.headline)
      .toBe("Olá")
    expect(localize(content, "pt").clipData.headline).toBe(content.clipData.headline)
    const { locales: _locales, ...defaults } = content
    expect(localize(content, "ja")).toEqual(defaults)
    expect(localize({ clipData: { headline: "Hi" }, locales: { de: { clipData: { subline: "Hallo" } } } }, "de"))
      .toEqual({ clipData: { headline: "Hi", subline: "Hallo" } })
  })
})
