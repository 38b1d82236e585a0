import { beforeAll, describe, expect, it } from "vitest"
import { client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"
import { newEventId } from "../support/Routes.js"

const MARKET = "tpl_3a7c91e04b5d"
const BRIEFING = "tpl_8e2f60b9d14a"

let api: ReturnType<typeof client>

const { db, node } = useNode({ label: "streams" })

beforeAll(async () => {
  api = (await workspaceWithKey(node, ["streams:read", "streams:write", "ingest:write"])).api
})

const create = (body: Record<string, unknown>) => api.post("/v1/streams", { templateId: MARKET, ...body })

/** An event on the stream, as its sender would post it. */
const receive = (streamId: string, data: unknown) =>
  api.post("/v1/stream", { streamId, eventId: newEventId(), occurredAt: new Date().toISOString(), data })

describe("streams", () => {
  it("creates a stream with a drawn id and lists it", async () => {
    const r = await create({ name: "Prices", description: "EOD prices" })
    expect(r.status).toBe(201)
    expect(r.body.stream).toMatchObject({
      name: "Prices",
      description: "EOD prices",
      enabled: true,
      templateId: MARKET,
      fieldMap: {},
      subscribers: 0,
      listeners: [],
      lastReceivedAt: null
    })
    expect(r.body.stream.id).toMatch(/^st_[0-9a-f]{12}$/)
    const list = await api.get("/v1/streams")
    expect(list.status).toBe(200)
    expect(list.body.route).toMatch(/\/v1\/stream$/)
    expect(list.body.streams.map((s: { id: string }) => s.id)).toContain(r.body.stream.id)
  })

  it("takes a chosen id, refuses it twice with 409 and drops templateVariant/templateVersion", async () => {
    const r = await create({
      id: "st_00000000abcd",
      name: "Chosen",
      templateVariant: "compact",
      templateVersion: "1.0.0"
    })
    expect(r.status).toBe(201)
    expect(r.body.stream.id).toBe("st_00000000abcd")
    expect(r.body.stream).not.toHaveProperty("templateVariant")
    const again = await create({ id: "st_00000000abcd", name: "Again" })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe("conflict")
  })

  it("refuses an id taken in another workspace", async () => {
    const other = (await workspaceWithKey(node, ["streams:write"], "Other")).api
    await create({ id: "st_00000000beef", name: "Mine" })
    const r = await other.post("/v1/streams", { id: "st_00000000beef", name: "Theirs", templateId: MARKET })
    expect(r.status).toBe(409)
  })

  it("validates names, ids and templates", async () => {
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ name: "" }, 400, "schema_validation", "/name"],
      [{ name: "x".repeat(121) }, 400, "schema_validation", "/name"],
      [{ name: "ok", description: "d".repeat(501) }, 400, "schema_validation", "/description"],
      [{ name: "ok", id: "st_XYZ" }, 400, "schema_validation", "/id"],
      [{ name: "ok", enabled: "yes" }, 400, "schema_validation", "/enabled"]
    ]
    for (const [body, status, code, path] of cases) {
      const r = await create(body)
      expect(r.status, JSON.stringify(body)).toBe(status)
      expect(r.body.error.code).toBe(code)
      expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain(path)
    }
    const missing = await api.post("/v1/streams", { name: "no template" })
    expect(missing.status).toBe(400)
    expect(missing.body.error.details[0].path).toBe("/templateId")
    const unknown = await create({ name: "x", templateId: "tpl_000000000000" })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe("unknown_template")
    expect(await api.get("/v1/streams").then((l) => l.body.streams.some((s: { name: string }) => s.name === "x"))).toBe(
      false
    )
  })

  it("checks field maps against the template", async () => {
    const good = await create({
      name: "Mapped",
      fieldMap: {
        "/clipData/headline": { from: "/title", maxLength: true },
        "/clipData/figures/0/value": { from: "/price", as: "number" },
        "/metaData/title": { const: "Daily" }
      }
    })
    expect(good.status).toBe(201)
    expect(good.body.stream.fieldMap["/clipData/headline"]).toEqual({ from: "/title", maxLength: true })
    const bad = await create({
      name: "Bad map",
      fieldMap: {
        "/clipData/nope": { from: "/x" },
        "clipData/headline": { from: "/x" },
        "/clipData/subline": { from: "/x", const: "both" },
        "/clipData/source": {},
        "/metaData/title": { from: "title" }
      }
    })
    expect(bad.status).toBe(400)
    const paths = bad.body.error.details.map((d: { path: string }) => d.path)
    expect(paths).toEqual(expect.arrayContaining([
      "/fieldMap/~1clipData~1nope",
      "/fieldMap/clipData~1headline",
      "/fieldMap/~1clipData~1subline",
      "/fieldMap/~1clipData~1source",
      "/fieldMap/~1metaData~1title/from"
    ]))
    const badAs = await create({ name: "Bad as", fieldMap: { "/clipData/headline": { from: "/t", as: "date" } } })
    expect(badAs.status).toBe(400)
    expect(badAs.body.error.details[0].path).toBe("/fieldMap/~1clipData~1headline/as")
  })

  it("accepts field-map keys into a supported locale's copy of the content, on create and update", async () => {
    const made = await create({
      name: "Localized",
      fieldMap: {
        "/locales/fr/clipData/headline": { from: "/titre", maxLength: true },
        "/locales/pt-BR/metaData/title": { const: "Diário" }
      }
    })
    expect(made.status).toBe(201)
    expect(made.body.stream.fieldMap["/locales/fr/clipData/headline"]).toEqual({ from: "/titre", maxLength: true })
    const id = made.body.stream.id
    const updated = await api.post(`/v1/streams/${id}/update`, {
      fieldMap: { "/locales/de/clipData/figures/0/value": { from: "/preis", as: "number" } }
    })
    expect(updated.status).toBe(200)
    const bad = await api.post(`/v1/streams/${id}/update`, {
      fieldMap: {
        "/locales/xx/clipData/headline": { from: "/a" },
        "/locales/fr/clipData/nope": { from: "/a" }
      }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining([
      "/fieldMap/~1locales~1xx~1clipData~1headline",
      "/fieldMap/~1locales~1fr~1clipData~1nope"
    ]))
    const after = (await api.get("/v1/streams")).body.streams.find((s: { id: string }) => s.id === id)
    expect(Object.keys(after.fieldMap)).toEqual(["/locales/de/clipData/figures/0/value"])
  })

  it("updates fields, keeps the id and checks a new template against the map", async () => {
    const { body } = await create({ name: "To update", fieldMap: { "/clipData/figures/3/label": { const: "Q4" } } })
    const id = body.stream.id
    const r = await api.post(`/v1/streams/${id}/update`, { name: "Updated", enabled: false, description: "now" })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ ok: true })
    const listed = (await api.get("/v1/streams")).body.streams.find((s: { id: string }) => s.id === id)
    expect(listed).toMatchObject({ name: "Updated", enabled: false, description: "now" })
    const ignoredId = await api.post(`/v1/streams/${id}/update`, { id: "st_111111111111" })
    expect(ignoredId.status).toBe(200)
    expect((await api.get("/v1/streams")).body.streams.some((s: { id: string }) => s.id === id)).toBe(true)
    // Briefing's newest build draws two figures at most, so figure index 3 no longer exists.
    const switched = await api.post(`/v1/streams/${id}/update`, { templateId: BRIEFING })
    expect(switched.status).toBe(400)
    expect(switched.body.error.details[0].path).toBe("/fieldMap/~1clipData~1figures~13~1label")
    const fixed = await api.post(`/v1/streams/${id}/update`, { templateId: BRIEFING, fieldMap: {} })
    expect(fixed.status).toBe(200)
    const missing = await api.post("/v1/streams/st_999999999999/update", { name: "x" })
    expect(missing.status).toBe(404)
  })

  it("checks a changed map against the stream's last payload", async () => {
    const { body } = await create({ name: "Sampled", fieldMap: { "/clipData/headline": { from: "/title" } } })
    const id = body.stream.id
    expect((await receive(id, { title: "Gold up", n: 5 })).status).toBe(202)
    const broken = await api.post(`/v1/streams/${id}/update`, {
      fieldMap: { "/clipData/headline": { from: "/missing" } }
    })
    expect(broken.status).toBe(400)
    expect(broken.body.error.details[0]).toMatchObject({ path: "/fieldMap", rule: "required" })
    expect(broken.body.error.details[0].message).toContain("/clipData")
    const ok = await api.post(`/v1/streams/${id}/update`, { fieldMap: { "/clipData/headline": { from: "/title" } } })
    expect(ok.status).toBe(200)
  })

  it("suggests a map only once a payload arrived", async () => {
    const { body } = await create({ name: "Suggest" })
    const id = body.stream.id
    const none = await api.post(`/v1/streams/${id}/suggest-map`)
    expect(none.status).toBe(409)
    expect(none.body.error.code).toBe("no_sample")
    const sample = {
      title: "Oil slides",
      summary: "Brent down",
      provider: "Desk",
      metrics: [{ label: "Brent", value: 71.2 }]
    }
    expect((await receive(id, sample)).status).toBe(202)
    const r = await api.post(`/v1/streams/${id}/suggest-map`, {})
    expect(r.status).toBe(200)
    expect(r.body.sample).toEqual(sample)
    expect(r.body.suggestion["/clipData/headline"]).toEqual({ from: "/title" })
    expect(r.body.suggestion["/clipData/subline"]).toEqual({ from: "/summary" })
    expect(r.body.suggestion["/clipData/figures"]).toEqual({ from: "/metrics" })
    expect(r.body.templateFields.some((f: { key: string }) => f.key === "/clipData/headline")).toBe(true)
    // Never applied.
    const listed = (await api.get("/v1/streams")).body.streams.find((s: { id: string }) => s.id === id)
    expect(listed.fieldMap).toEqual({})
    const badVersion = await api.post(`/v1/streams/${id}/suggest-map`, { templateVersion: "1.1" })
    expect(badVersion.status).toBe(400)
  })

  it("deletes: gone from the list, history kept with ' (removed)', id never reused", async () => {
    const { body } = await create({ id: "st_0000000dead0", name: "Doomed" })
    const r = await api.post(`/v1/streams/st_0000000dead0/delete`)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ ok: true, stopped: 0 })
    expect((await api.get("/v1/streams")).body.streams.some((s: { id: string }) => s.id === body.stream.id)).toBe(false)
    const rows = await query<{ name: string }>(db.url, "SELECT name FROM streams WHERE id = $1", [body.stream.id])
    expect(rows[0]?.name).toBe("Doomed (removed)")
    expect((await api.post(`/v1/streams/st_0000000dead0/delete`)).status).toBe(404)
    expect((await api.post(`/v1/streams/st_0000000dead0/update`, { name: "x" })).status).toBe(404)
    const reuse = await create({ id: "st_0000000dead0", name: "Reborn" })
    expect(reuse.status).toBe(409)
  })

  it("applies a retried request (same x-request-id) once", async () => {
    const requestId = "01JZZZZZZZZZZZZZZZZZZZZZZ0"
    const first = await api.post("/v1/streams", { id: "st_00000000aaaa", name: "Once", templateId: MARKET }, {
      "x-request-id": requestId
    })
    const second = await api.post("/v1/streams", { id: "st_00000000aaaa", name: "Once", templateId: MARKET }, {
      "x-request-id": requestId
    })
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    const rows = await query(db.url, "SELECT id FROM streams WHERE id = 'st_00000000aaaa'")
    expect(rows).toHaveLength(1)
    const messages = await query(
      db.url,
      "SELECT count(*)::int AS n FROM cluster_messages WHERE entity_id = 'st_00000000aaaa'"
    )
    expect(messages[0]).toEqual({ n: 1 })
  })

  it("applies the same update sent several times at once only once", async () => {
    await create({ id: "st_00000000cccc", name: "Before" })
    const requestId = "01JZZZZZZZZZZZZZZZZZZZZZZ2"
    const answers = await Promise.all(
      Array.from(
        { length: 5 },
        () => api.post("/v1/streams/st_00000000cccc/update", { name: "Renamed once" }, { "x-request-id": requestId })
      )
    )
    for (const answer of answers) expect([200, 409]).toContain(answer.status)
    expect(answers.some((answer) => answer.status === 200)).toBe(true)
    const messages = await query(
      db.url,
      "SELECT count(*)::int AS n FROM cluster_messages WHERE entity_id = 'st_00000000cccc' AND tag = 'Update'"
    )
    expect(messages[0]).toEqual({ n: 1 })
    expect((await query(db.url, "SELECT name FROM streams WHERE id = 'st_00000000cccc'"))[0]).toEqual({
      name: "Renamed once"
    })
  })

  it("answers updates sent together each for its own stream, and changes only the caller's", async () => {
    const other = (await workspaceWithKey(node, ["streams:read", "streams:write"], "Neighbour")).api
    const mine = Array.from({ length: 10 }, (_, i) => `st_0000000b${String(i).padStart(4, "0")}`)
    const theirs = Array.from({ length: 5 }, (_, i) => `st_0000000c${String(i).padStart(4, "0")}`)
    for (const id of mine) expect((await create({ id, name: "Mine" })).status).toBe(201)
    for (const id of theirs) {
      expect((await other.post("/v1/streams", { id, name: "Theirs", templateId: MARKET })).status).toBe(201)
    }
    const answers = await Promise.all(
      [...mine, ...theirs].map((id) => api.post(`/v1/streams/${id}/update`, { name: `Renamed ${id}` }))
    )
    expect(answers.map((answer) => answer.status)).toEqual([...mine.map(() => 200), ...theirs.map(() => 404)])
    const rows = await query<{ id: string; name: string }>(
      db.url,
      "SELECT id, name FROM streams WHERE id = ANY($1) ORDER BY id",
      [[...mine, ...theirs]]
    )
    expect(rows).toEqual([
      ...mine.map((id) => ({ id, name: `Renamed ${id}` })),
      ...theirs.map((id) => ({ id, name: "Theirs" }))
    ])
  })

  it("stores updated text exactly, quotes, backslashes, braces and the word NULL included", async () => {
    await create({ id: "st_00000000dddd", name: "Plain" })
    const name = `NULL "quoted" \\ {braces}, commas ✓`
    const description = `NULL`
    const fieldMap = { "/metaData/title": { const: `say "hi" \\ {x}` } }
    const answer = await api.post("/v1/streams/st_00000000dddd/update", { name, description, enabled: false, fieldMap })
    expect(answer.status).toBe(200)
    const stream = (await api.get("/v1/streams")).body.streams.find((s: { id: string }) => s.id === "st_00000000dddd")
    expect(stream).toMatchObject({ name, description, enabled: false, fieldMap })
  })

  it("applies a retried create with a drawn id once: the same request id draws the same stream id", async () => {
    const requestId = "01JZZZZZZZZZZZZZZZZZZZZZZ1"
    const first = await api.post("/v1/streams", { name: "Drawn once", templateId: MARKET }, {
      "x-request-id": requestId
    })
    const second = await api.post("/v1/streams", { name: "Drawn once", templateId: MARKET }, {
      "x-request-id": requestId
    })
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.body.stream.id).toBe(first.body.stream.id)
    const rows = await query(db.url, "SELECT id FROM streams WHERE name = 'Drawn once'")
    expect(rows).toHaveLength(1)
  })
})
