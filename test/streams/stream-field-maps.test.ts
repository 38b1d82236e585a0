import { beforeAll, describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { useNode } from "../support/Rig.js"
import { MARKET, newEventId } from "../support/Routes.js"

let api: Awaited<ReturnType<typeof workspaceWithKey>>["api"]
let example: Record<string, Record<string, unknown>>

const { node } = useNode({ label: "stream_field_maps" })

beforeAll(async () => {
  api = (await workspaceWithKey(node, ["streams:read", "streams:write", "ingest:write", "templates:read"])).api
  const described = await api.get(`/v1/formats/template/${MARKET}`)
  expect(described.status, described.text).toBe(200)
  example = described.body.example
})

type Entry = { from: string; maxLength?: boolean }

/** SPEC "Stream": every top-level field of clipData and metaData one by one, each language copy whole. */
const mapFromExample = (extra: Record<string, Partial<Entry>> = {}): Record<string, Entry> => {
  const map: Record<string, Entry> = {}
  for (const half of ["clipData", "metaData"]) {
    for (const key of Object.keys(example[half]!)) map[`/${half}/${key}`] = { from: `/src/${half}/${key}` }
  }
  for (const locale of Object.keys(example["locales"]!)) map[`/locales/${locale}`] = { from: `/src/locales/${locale}` }
  for (const [key, entry] of Object.entries(extra)) map[key] = { ...map[key]!, ...entry }
  return map
}

const withHeadline = (headline: string | undefined) => {
  const { headline: _, ...rest } = example["clipData"]!
  return { ...example, clipData: headline === undefined ? rest : { ...rest, headline } }
}

const stream = async (fieldMap: Record<string, unknown>) => {
  const made = await api.post("/v1/streams", { name: `Mapped ${newEventId()}`, templateId: MARKET, fieldMap })
  expect(made.status, made.text).toBe(201)
  return made.body.stream.id as string
}

const envelope = (streamId: string, data: unknown) => ({
  streamId,
  eventId: newEventId(),
  occurredAt: "2026-11-23T08:30:00Z",
  data
})

const validate = async (streamId: string, data: unknown) => {
  const r = await api.post("/v1/stream/validate", envelope(streamId, data))
  expect(r.status, r.text).toBe(200)
  return r.body
}

const paths = (problems: ReadonlyArray<{ path: string }>) => problems.map((p) => p.path)

describe("field maps over any place of the input document", () => {
  it("a map built from the template's own example, language copies mapped whole, is saved and validates its example", async () => {
    const map = mapFromExample()
    expect(Object.keys(map)).toEqual(
      expect.arrayContaining(["/clipData/headline", "/metaData/hashtags", "/locales/de", "/locales/pt-BR"])
    )
    const id = await stream(map)
    const listed = (await api.get("/v1/streams")).body.streams.find((s: { id: string }) => s.id === id)
    expect(listed.fieldMap).toEqual(map)
    const answer = await validate(id, { src: example })
    expect(answer.errors).toEqual([])
    expect(answer.valid).toBe(true)
    expect(answer.document).toEqual(example)
  })

  it("a headline over the limit is an error at the headline, and cut when its entry has maxLength", async () => {
    const long = "H".repeat(95)
    const strict = await validate(await stream(mapFromExample()), { src: withHeadline(long) })
    expect(strict.valid).toBe(false)
    expect(paths(strict.errors)).toEqual(["/clipData/headline"])
    const cutting = await validate(await stream(mapFromExample({ "/clipData/headline": { maxLength: true } })), {
      src: withHeadline(long)
    })
    expect(cutting.valid).toBe(true)
    expect(cutting.document.clipData.headline).toBe("H".repeat(80))
    expect(cutting.warnings).toEqual([{ path: "/clipData/headline", message: expect.stringContaining("95") }])
  })

  it("an event missing the headline is 202 unmapped with mappingErrors", async () => {
    const id = await stream(mapFromExample())
    const r = await api.post("/v1/stream", envelope(id, { src: withHeadline(undefined) }))
    expect(r.status, r.text).toBe(202)
    expect(r.body.status).toBe("unmapped")
    expect(paths(r.body.mappingErrors)).toEqual(["/clipData/headline"])
  })

  it("/v1/streams/{id}/update with such a map answers { ok: true } and the next validate uses it", async () => {
    const id = await stream({})
    expect((await api.post("/v1/stream", envelope(id, { src: example }))).status).toBe(202)
    const before = await validate(id, { src: example })
    expect(before.valid).toBe(false)
    const updated = await api.post(`/v1/streams/${id}/update`, { fieldMap: mapFromExample() })
    expect(updated.status, updated.text).toBe(200)
    expect(updated.body).toEqual({ ok: true })
    const after = await validate(id, { src: example })
    expect(after.valid).toBe(true)
    expect(after.document).toEqual(example)
  })

  it("groups, the copies, lists and list items are targets whose value is checked when the document is validated", async () => {
    const map = {
      "/clipData": { from: "/c" },
      "/metaData": { from: "/m" },
      "/locales": { from: "/l" },
      "/clipData/figures": { from: "/figures" },
      "/clipData/figures/1": { from: "/second" }
    }
    const id = await stream(map)
    const clipData = example["clipData"]!
    const figures = clipData["figures"] as Array<Record<string, unknown>>
    const data = {
      c: clipData,
      m: example["metaData"],
      l: example["locales"],
      figures: figures.slice(0, 2),
      second: figures[5]
    }
    const good = await validate(id, data)
    expect(good.errors).toEqual([])
    expect(good.document.clipData.figures).toEqual([figures[0], figures[5]])
    expect(good.document.locales).toEqual(example["locales"])
    const bad = await validate(id, {
      ...data,
      second: { label: "L".repeat(30), value: "high" },
      l: { de: { clipData: { headline: 7 } } }
    })
    expect(bad.valid).toBe(false)
    expect(paths(bad.errors)).toEqual(
      expect.arrayContaining([
        "/clipData/figures/1/label",
        "/clipData/figures/1/value",
        "/locales/de/clipData/headline"
      ])
    )
  })

  it("maxLength on a group or a language copy cuts every over-long text inside it", async () => {
    const id = await stream({
      "/clipData": { from: "/c", maxLength: true },
      "/locales/de": { from: "/de", maxLength: true }
    })
    const data = {
      c: { headline: "E".repeat(90), bullets: ["b".repeat(200)] },
      de: { clipData: { headline: "D".repeat(85) }, metaData: { title: "T".repeat(101) } }
    }
    const answer = await validate(id, data)
    expect(answer.document.clipData.headline).toHaveLength(80)
    expect(answer.document.locales.de.clipData.headline).toHaveLength(80)
    expect(answer.document.locales.de.metaData.title).toHaveLength(100)
    expect(paths(answer.warnings)).toEqual(expect.arrayContaining([
      "/clipData/headline",
      "/clipData/bullets/0",
      "/locales/de/clipData/headline",
      "/locales/de/metaData/title"
    ]))
    expect(answer.valid).toBe(true)
  })

  it("a key laid over a mapped group changes the document, never the data the sender posted", async () => {
    const id = await stream({ "/clipData/headline": { const: "Fixed headline" }, "/clipData": { from: "/c" } })
    const posted = { c: { headline: "As posted", figures: [{ label: "Gold", value: 1 }] } }
    const sent = await api.post("/v1/stream", envelope(id, posted))
    expect(sent.status, sent.text).toBe(202)
    expect(sent.body.normalized.clipData.headline).toBe("Fixed headline")
    const stored = (await api.get("/v1/streams")).body.streams.find((s: { id: string }) => s.id === id)
    expect(stored.lastSample).toEqual(posted)
  })

  it("still refuses keys naming no place of the document: an unsupported language, an unknown input", async () => {
    const r = await api.post("/v1/streams", {
      name: "Unknown places",
      templateId: MARKET,
      fieldMap: { "/locales/xx": { from: "/a" }, "/clipData/nope": { from: "/a" }, "/sources": { from: "/a" } }
    })
    expect(r.status).toBe(400)
    expect(paths(r.body.error.details)).toEqual([
      "/fieldMap/~1locales~1xx",
      "/fieldMap/~1clipData~1nope",
      "/fieldMap/~1sources"
    ])
  })
})
