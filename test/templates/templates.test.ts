import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { describeBuild } from "../../src/templates/Describe.js"
import { descriptorSha } from "../../src/templates/Descriptor.js"
import { listTemplates, resolveBuild } from "../../src/templates/TemplateRegistry.js"
import { type Answer, client, workspaceWithKey } from "../support/Client.js"
import { useNode } from "../support/Rig.js"
import { checkSchema } from "../templates/MiniJsonSchema.js"

const marketMove = "tpl_3a7c91e04b5d"
const briefing = "tpl_8e2f60b9d14a"
const missing = "tpl_000000000000"

const { node, api } = useNode({ label: "templates_http", workspace: { scopes: ["templates:read"] } })
const anonymous = client(node)

const expectError = (answer: Answer, status: number, code: string) => {
  expect(answer.status, answer.text).toBe(status)
  expect(answer.body.error.code).toBe(code)
  expect(answer.body.error.type).toMatch(new RegExp(`/errors/${code}$`))
  expect(answer.body.error.requestId).toBe(answer.headers.get("x-request-id"))
  expect(answer.body.error.requestId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  return answer.body.error as { message: string; details: Array<{ path: string; message: string }> }
}

describe("GET /v1/templates", () => {
  it("answers the catalogue block and a workspace view of every shipped template", async () => {
    const answer = await api.get("/v1/templates")
    expect(answer.status, answer.text).toBe(200)
    const shipped = listTemplates()
    expect(answer.body.catalogue.map((entry: { id: string }) => entry.id)).toEqual(shipped.map((t) => t.id))
    expect(answer.body.templates).toHaveLength(shipped.length)
    for (const template of shipped) {
      const view = answer.body.templates.find((v: { templateId: string }) => v.templateId === template.id)
      const variants = template.variants.map((variant) => ({
        name: variant.name,
        versions: variant.builds.map((build) => build.version)
      }))
      expect(view).toMatchObject({ name: template.name, family: template.family, offered: true, variants })
      expect(view.descriptorSha).toBe(descriptorSha(template))
      expect(view.descriptorSha).toMatch(/^[0-9a-f]{64}$/)
      expect(view.duration).toMatchObject({ mode: "fixed" })
      expect(view.inputSchema.properties.clipData.required).toContain("headline")
      expect(typeof view.syncedAt).toBe("string")
      const entry = answer.body.catalogue.find((c: { id: string }) => c.id === template.id)
      expect(entry).toEqual({
        id: template.id,
        name: template.name,
        family: template.family,
        description: template.description,
        variants: template.variants.map((variant) => variant.name)
      })
    }
  })

  it("is refused to a key without templates:read, naming the permission", async () => {
    const streamsOnly = await workspaceWithKey(node, ["streams:read"])
    const error = expectError(await streamsOnly.api.get("/v1/templates"), 403, "forbidden")
    expect(error.message).toContain("templates:read")
  })

  it("needs a key", async () => {
    expectError(await anonymous.get("/v1/templates"), 401, "unauthenticated")
  })
})

describe("GET /v1/templates/{templateId}/reference", () => {
  it("lists every variant and version with its ratios", async () => {
    const answer = await api.get(`/v1/templates/${briefing}/reference`)
    expect(answer.status, answer.text).toBe(200)
    const template = listTemplates().find((t) => t.id === briefing)!
    expect(answer.body).toEqual({
      templateId: briefing,
      name: "Briefing",
      variants: template.variants.map((variant) => ({
        name: variant.name,
        versions: variant.builds.map((build) => ({ version: build.version, ratios: build.ratios }))
      }))
    })
  })

  it("answers 404 unknown_template in the envelope for an unknown id", async () => {
    const error = expectError(await api.get(`/v1/templates/${missing}/reference`), 404, "unknown_template")
    expect(error.message).toContain(missing)
  })
})

describe("OpenAPI", () => {
  it("documents the four template routes", async () => {
    const answer = await anonymous.get("/v1/openapi.json")
    expect(answer.status, answer.text).toBe(200)
    expect(Object.keys(answer.body.paths)).toEqual(expect.arrayContaining([
      "/v1/templates",
      "/v1/templates/{templateId}/reference",
      "/v1/formats/templates",
      "/v1/formats/template/{templateId}"
    ]))
  })
})

describe("GET /v1/formats/templates", () => {
  it("is served without an Authorization header and with a key, alike", async () => {
    const open = await anonymous.get("/v1/formats/templates")
    const keyed = await api.get("/v1/formats/templates")
    expect(open.status, open.text).toBe(200)
    expect(keyed.status, keyed.text).toBe(200)
    expect(keyed.body).toEqual(open.body)
    const expected = listTemplates().flatMap((t) => t.variants.map((variant) => `${t.id}/${variant.name}`))
    expect(open.body.templates.map((s: { templateId: string; variant: string }) => `${s.templateId}/${s.variant}`))
      .toEqual(expected)
    for (const shelf of open.body.templates) {
      expect(Object.keys(shelf).sort()).toEqual(["keys", "templateId", "templateName", "variant", "version"])
      expect(Number.isInteger(shelf.keys) && shelf.keys > 0).toBe(true)
    }
  })

  it("is readable without a key even by a workspace whose key lacks templates:read", async () => {
    const streamsOnly = await workspaceWithKey(node, ["streams:read"])
    expectError(await streamsOnly.api.get("/v1/formats/templates"), 403, "forbidden")
    expect((await anonymous.get("/v1/formats/templates")).status).toBe(200)
  })
})

describe("GET /v1/formats/template/{templateId}", () => {
  it("defaults to the first variant and newest build, unauthenticated", async () => {
    const answer = await anonymous.get(`/v1/formats/template/${marketMove}`)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toMatchObject({ templateId: marketMove, templateName: "Market move", variant: "standard" })
    expect(answer.body.version).toBe("1.1.0")
    expect(answer.body.ratios.length).toBeGreaterThan(0)
    expect(answer.body.keys.keys.map((k: { key: string }) => k.key)).toEqual(["clipData", "metaData"])
    expect(typeof answer.body.keys.format).toBe("string")
    expect(typeof answer.body.keys.summary).toBe("string")
  })

  it("carries an example that satisfies its own jsonSchema", async () => {
    const answer = await api.get(`/v1/formats/template/${briefing}`)
    expect(answer.status, answer.text).toBe(200)
    const { example, jsonSchema } = answer.body
    expect(typeof example.clipData.headline).toBe("string")
    expect(Object.keys(jsonSchema.properties)).toEqual(expect.arrayContaining(["clipData", "metaData", "locales"]))
    for (const key of Object.keys(example)) expect(Object.keys(jsonSchema.properties)).toContain(key)
    for (const key of Object.keys(example.clipData)) {
      expect(Object.keys(jsonSchema.properties.clipData.properties)).toContain(key)
    }
    expect(checkSchema(jsonSchema, example)).toEqual([])
  })

  it("keeps nested key nodes whole (group keys, list items, enum values)", async () => {
    const answer = await api.get(`/v1/formats/template/${marketMove}`)
    const clipData = answer.body.keys.keys[0]
    expect(clipData).toMatchObject({ key: "clipData", type: "group", required: true })
    const headline = clipData.keys.find((k: { key: string }) => k.key === "headline")
    expect(headline).toMatchObject({ type: "text", required: true, maxLength: 80 })
    const figures = clipData.keys.find((k: { key: string }) => k.key === "figures")
    expect(figures.type).toBe("list")
    const direction = figures.item.keys.find((k: { key: string }) => k.key === "direction")
    expect(direction).toMatchObject({ type: "enum" })
    expect(direction.values).toContain("up")
  })

  it("serves the registry's description whole, nothing dropped on the way out", async () => {
    const answer = await anonymous.get(`/v1/formats/template/${marketMove}?variant=compact&version=1.0.1`)
    const resolved = Either.getOrThrow(resolveBuild(marketMove, { variant: "compact", version: "1.0.1" }))
    expect(answer.body).toEqual(JSON.parse(JSON.stringify(describeBuild(resolved))))
  })

  it("describes an explicit variant and version", async () => {
    const answer = await anonymous.get(`/v1/formats/template/${briefing}?variant=compact&version=1.0.0`)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toMatchObject({ templateId: briefing, variant: "compact", version: "1.0.0" })
    const latest = await anonymous.get(`/v1/formats/template/${briefing}?variant=compact&version=latest`)
    expect(latest.body).toMatchObject({ variant: "compact", version: "1.1.0" })
    const pinned = await anonymous.get(`/v1/formats/template/${briefing}?version=1.0.0`)
    expect(pinned.body).toMatchObject({ variant: "standard", version: "1.0.0" })
  })

  it("answers 404 unknown_template naming what is missing", async () => {
    const template = expectError(await anonymous.get(`/v1/formats/template/${missing}`), 404, "unknown_template")
    expect(template.message).toContain(missing)
    const variant = expectError(
      await anonymous.get(`/v1/formats/template/${briefing}?variant=wide`),
      404,
      "unknown_template"
    )
    expect(variant.message).toContain("variant")
    expect(variant.message).toContain("wide")
    const build = expectError(
      await anonymous.get(`/v1/formats/template/${briefing}?version=9.9.9`),
      404,
      "unknown_template"
    )
    expect(build.message).toContain("9.9.9")
  })

  it("refuses a version that is neither latest nor major.minor.patch with 400 schema_validation", async () => {
    for (const version of ["1.0", "v1.0.0", "01.0.0", "newest"]) {
      const error = expectError(
        await anonymous.get(`/v1/formats/template/${marketMove}?version=${version}`),
        400,
        "schema_validation"
      )
      expect(error.message).toContain("query parameter")
      expect(error.details).toHaveLength(1)
      expect(error.details[0]).toMatchObject({ path: "/version", received: version })
    }
  })

  it("uses a ULID sent in x-request-id", async () => {
    const requestId = "01J0000000000000000000000Z"
    const answer = await anonymous.get(`/v1/formats/template/${missing}`, { "x-request-id": requestId })
    expect(expectError(answer, 404, "unknown_template")).toBeDefined()
    expect(answer.body.error.requestId).toBe(requestId)
  })
})
