import { ulid } from "ulid"
import { beforeAll, describe, expect, it } from "vitest"
import { ErrorCatalogue } from "../../src/domain/Errors.js"
import { type Answer, call, workspaceWithKey } from "../support/Client.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET, TRACEPARENT, ULID } from "../support/Routes.js"

let key: string
let otherKey: string
let streamId: string
/** `{base_url}/errors`: PUBLIC_BASE_URL is unset, so it defaults to http://localhost:$PORT. */
let errorsBase: string

const { node } = useNode({ label: "errors" })

beforeAll(async () => {
  key = (await workspaceWithKey(node, ["*"], "Errors")).apiKey
  otherKey = (await workspaceWithKey(node, ["*"], "Errors elsewhere")).apiKey
  errorsBase = `http://localhost:${new URL(node.url).port}/errors`
  const created = await call(node.url, "POST", "/v1/streams", { key, body: { name: "Mine", templateId: MARKET } })
  expect(created.status, created.text).toBe(201)
  streamId = created.body.stream.id
})

const post = (path: string, body: unknown, headers: Record<string, string> = {}, as = key) =>
  call(node.url, "POST", path, { key: as, body, headers })

const raw = (path: string, text: string, contentType = "application/json") =>
  call(node.url, "POST", path, { key, raw: text, headers: { "content-type": contentType } })

/** `expectError` and, here, the exact `type` under the node's base URL. */
const envelope = (r: Answer, status: number, code: string) => {
  const error = expectError(r, status, code)
  expect(error.type).toBe(`${errorsBase}/${code}`)
  return error
}

describe("the envelope of every code the foundation produces", () => {
  it("malformed_json: a body that is not JSON", async () => {
    for (const text of ["{bad", "{\"name\": }", "[1,]", "'single'", "{\"a\":1}}"]) {
      envelope(await raw("/v1/streams", text), 400, "malformed_json")
    }
  })

  it("schema_validation: wrong types, each detail an RFC 6901 pointer", async () => {
    const error = envelope(await post("/v1/streams", { name: 5, templateId: MARKET }), 400, "schema_validation")
    expect(error.details.map((d) => d.path)).toContain("/name")
    for (const detail of error.details) expect(detail.message.length).toBeGreaterThan(0)
  })

  it("schema_validation: a nested field-map key is escaped (~1 for /)", async () => {
    const body = { name: "Nested", templateId: MARKET, fieldMap: { "/clipData/headline": { from: "/h", as: "shout" } } }
    const error = envelope(await post("/v1/streams", body), 400, "schema_validation")
    expect(error.details).toHaveLength(1)
    expect(error.details[0]!.path).toBe("/fieldMap/~1clipData~1headline/as")
    expect(error.details[0]!.message).toContain("shout")
  })

  it("schema_validation: a value outside an enum is one detail naming every allowed value", async () => {
    const body = { name: "Enum", templateId: MARKET, fieldMap: { "/clipData/headline": { from: "/t", as: "date" } } }
    const error = envelope(await post("/v1/streams", body), 400, "schema_validation")
    expect(error.details).toEqual([{
      path: "/fieldMap/~1clipData~1headline/as",
      message: "Expected one of \"string\" | \"number\" | \"integer\" | \"boolean\" | \"iso-date\", actual \"date\"",
      rule: "enum"
    }])
    expect(error.message).toContain("/fieldMap/~1clipData~1headline/as")
  })

  it("schema_validation: an optional field of the wrong type is one detail, no \"Expected undefined\"", async () => {
    const body = { name: "Ok", templateId: MARKET, description: 4 }
    const error = envelope(await post("/v1/streams", body), 400, "schema_validation")
    expect(error.details).toEqual([{ path: "/description", message: "Expected string, actual 4", rule: "type" }])
  })

  it("schema_validation: the whole document is the empty pointer", async () => {
    const error = envelope(await raw("/v1/streams", "[]"), 400, "schema_validation")
    expect(error.details.map((d) => d.path)).toContain("")
  })

  it("unauthenticated: no key", async () => {
    envelope(await call(node.url, "GET", "/v1/streams"), 401, "unauthenticated")
  })

  it("forbidden: a key without the permission", async () => {
    const readOnly = await workspaceWithKey(node, ["streams:read"])
    const r = await post("/v1/streams", { name: "No", templateId: MARKET }, {}, readOnly.apiKey)
    expect(envelope(r, 403, "forbidden").message).toContain("streams:write")
  })

  it("not_found: an unknown route", async () => {
    envelope(await call(node.url, "GET", "/v1/nope", { key }), 404, "not_found")
    envelope(await call(node.url, "GET", "/v1/nope"), 404, "not_found")
  })

  it("not_found: another workspace's stream answers exactly like a missing one", async () => {
    for (const action of ["update", "delete", "suggest-map"]) {
      const body = action === "update" ? { name: "Taken over" } : undefined
      const theirs = await post(`/v1/streams/${streamId}/${action}`, body, {}, otherKey)
      const missing = await post(`/v1/streams/st_00000000abcd/${action}`, body, {}, otherKey)
      envelope(theirs, 404, "not_found")
      envelope(missing, 404, "not_found")
      expect(theirs.body.error.message.replace(streamId, "<id>")).toBe(
        missing.body.error.message.replace("st_00000000abcd", "<id>")
      )
    }
  })

  it("conflict: a taken stream id", async () => {
    envelope(await post("/v1/streams", { id: streamId, name: "Again", templateId: MARKET }), 409, "conflict")
  })

  it("unknown_template: a template that is not offered", async () => {
    envelope(await post("/v1/streams", { name: "Ghost", templateId: "tpl_000000000000" }), 404, "unknown_template")
  })

  it("unsupported_media_type: a text/plain body to a JSON route", async () => {
    envelope(await raw("/v1/streams", "{\"name\":\"x\"}", "text/plain"), 415, "unsupported_media_type")
  })

  it("payload_too_large: a JSON body over 1 MB", async () => {
    const big = JSON.stringify({ name: "Big", templateId: MARKET, description: "x".repeat(1_100_000) })
    envelope(await raw("/v1/streams", big), 413, "payload_too_large")
  })

  it("no_sample: suggest-map before the stream received anything", async () => {
    envelope(await post(`/v1/streams/${streamId}/suggest-map`, {}), 409, "no_sample")
  })
})

describe("request ids and trace context", () => {
  const answers = () => [
    call(node.url, "GET", "/health"),
    call(node.url, "GET", "/v1/whoami", { key }),
    post("/v1/streams", { name: "Fresh", templateId: MARKET }),
    call(node.url, "GET", "/v1/streams"),
    raw("/v1/streams", "{bad"),
    raw("/v1/streams", "x", "text/plain"),
    raw("/v1/streams", `"${"x".repeat(1_100_000)}"`),
    call(node.url, "GET", "/errors/conflict"),
    call(node.url, "GET", "/v1/openapi.json")
  ]

  it("every answer, 2xx or error, carries a ULID x-request-id and a W3C traceparent", async () => {
    const all = await Promise.all(answers())
    expect(all.map((r) => r.status)).toEqual([200, 200, 201, 401, 400, 415, 413, 200, 200])
    for (const r of all) {
      expect(r.headers.get("x-request-id")).toMatch(ULID)
      expect(r.headers.get("traceparent")).toMatch(TRACEPARENT)
    }
    expect(new Set(all.map((r) => r.headers.get("x-request-id"))).size).toBe(all.length)
  })

  it("a ULID sent in x-request-id is used, in the header and in the envelope", async () => {
    const sent = ulid()
    const ok = await call(node.url, "GET", "/v1/whoami", { key, headers: { "x-request-id": sent } })
    expect(ok.headers.get("x-request-id")).toBe(sent)
    const failed = await call(node.url, "GET", "/v1/streams", { headers: { "x-request-id": sent } })
    expect(envelope(failed, 401, "unauthenticated").requestId).toBe(sent)
    const early = await call(node.url, "POST", "/v1/streams", {
      key,
      raw: "x",
      headers: { "x-request-id": sent, "content-type": "text/plain" }
    })
    expect(envelope(early, 415, "unsupported_media_type").requestId).toBe(sent)
  })

  it("anything else sent is replaced by a fresh ULID", async () => {
    for (const sent of ["not-a-ulid", "01ARZ3NDEKTSV4RRFFQ69G5FA", `${ulid()}X`, "' OR 1=1 --"]) {
      const r = await call(node.url, "GET", "/v1/nope", { headers: { "x-request-id": sent } })
      const error = envelope(r, 404, "not_found")
      expect(error.requestId).not.toBe(sent)
      expect(error.requestId).toMatch(ULID)
    }
  })
})

describe("error pages and API description", () => {
  const codes = Object.entries(ErrorCatalogue)

  it("the catalogue has the spec's 30 codes", () => {
    expect(codes).toHaveLength(30)
  })

  it.each(codes)("GET /errors/%s is an HTML page naming the code and its status", async (code, [status]) => {
    const r = await call(node.url, "GET", `/errors/${code}`)
    expect(r.status).toBe(200)
    expect(r.headers.get("content-type")).toMatch(/^text\/html/)
    expect(r.text).toContain(code)
    expect(r.text).toContain(String(status))
  })

  it("an unknown code is 404", async () => {
    envelope(await call(node.url, "GET", "/errors/no_such_code"), 404, "not_found")
    envelope(await call(node.url, "GET", "/errors/toString"), 404, "not_found")
  })

  it("/v1/openapi.json describes the API, /docs renders it", async () => {
    const spec = await call(node.url, "GET", "/v1/openapi.json")
    expect(spec.status).toBe(200)
    expect(spec.headers.get("content-type")).toMatch(/application\/json/)
    expect(spec.body.openapi).toMatch(/^3\./)
    expect(Object.keys(spec.body.paths)).toContain("/v1/streams")
    const docs = await call(node.url, "GET", "/docs")
    expect(docs.status).toBe(200)
    expect(docs.headers.get("content-type")).toMatch(/^text\/html/)
    expect(docs.text).toMatch(/<html/i)
  })
})

describe("junk bodies never answer 500", () => {
  // A small seeded generator, so a failure can be replayed.
  let seed = 20261122
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(next() * xs.length)]!
  const junkString = () =>
    String.fromCharCode(...Array.from({ length: Math.floor(next() * 40) }, () => Math.floor(next() * 0xffff)))
  const junk = (depth: number): unknown => {
    switch (pick(["string", "number", "array", "null", "object", "nested", "bool"])) {
      case "string":
        return junkString()
      case "number":
        return pick([0, -1, 1e308, -1e308, 2 ** 53 + 1, 2_147_483_648, 0.5, 1e-300])
      case "array":
        return depth > 3 ? [] : Array.from({ length: Math.floor(next() * 4) }, () => junk(depth + 1))
      case "null":
        return null
      case "bool":
        return next() < 0.5
      case "nested": {
        let value: unknown = junkString()
        for (let i = 0; i < 200; i++) value = { [junkString()]: value }
        return value
      }
      default:
        return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [junkString(), junk(depth + 1)]))
    }
  }
  const fields: Record<string, ReadonlyArray<string>> = {
    "/v1/streams": ["id", "name", "description", "enabled", "templateId", "fieldMap"],
    "/admin/workspaces": ["name", "ownerEmail"]
  }
  /** Mostly the route's own fields with junk values, so the bodies get past the first checks. */
  const body = (path: string, i: number): string => {
    if (i % 10 === 0) return JSON.stringify(junk(0))
    if (i % 10 === 1) return `{"name": 1e400, "templateId": ${"9".repeat(400)}}`
    const shape: Record<string, unknown> = Object.fromEntries(
      fields[path]!.map((f) => [f, next() < 0.5 ? junkString() : junk(1)])
    )
    if (path === "/v1/streams" && next() < 0.5) shape["templateId"] = MARKET
    if (path === "/v1/streams" && next() < 0.5) shape["fieldMap"] = { [`/${junkString()}`]: { from: junkString() } }
    return JSON.stringify(shape)
  }

  it.each(Object.keys(fields))("30 junk bodies to %s", async (path) => {
    for (let i = 0; i < 30; i++) {
      const text = body(path, i)
      const r = await call(node.url, "POST", path, {
        key: path.startsWith("/admin") ? node.adminToken : key,
        raw: text,
        headers: { "content-type": "application/json" }
      })
      expect(r.status, `${r.text}\n for ${text.slice(0, 300)}`).toBeLessThan(500)
      if (r.status >= 400) expectError(r, r.status, r.body.error.code)
    }
  })
})

describe("bodies refused before any route", () => {
  const NUL = "Text may not contain the NUL character (U+0000)."
  const admin = (path: string, text: string) =>
    call(node.url, "POST", path, { key: node.adminToken, raw: text, headers: { "content-type": "application/json" } })

  // PostgreSQL text and jsonb cannot hold U+0000: once a 500 on admin routes and a request that never answered
  // on POST /v1/streams (the stream entity died on the insert and was restarted forever).
  it("a string holding U+0000 is 400 schema_validation, one detail per string or key", async () => {
    const body = {
      name: "a\u0000b",
      templateId: MARKET,
      fieldMap: { "/clip\u0000Data": { from: "/x" }, "/ok": { from: "/x", const: ["fine", "\u0000"] } }
    }
    const error = envelope(await post("/v1/streams", body), 400, "schema_validation")
    expect(error.message).toBe(NUL)
    expect(error.details).toEqual([
      { path: "/name", message: NUL, rule: "noNul" },
      { path: "/fieldMap/~1clip\u0000Data", message: NUL, rule: "noNul" },
      { path: "/fieldMap/~1ok/const/1", message: NUL, rule: "noNul" }
    ])
  })

  it("U+0000 is refused on the admin routes too, and before the credential is looked at", async () => {
    const workspace = envelope(await admin("/admin/workspaces", "{\"name\":\"x\\u0000\"}"), 400, "schema_validation")
    expect(workspace.details.map((d) => d.path)).toEqual(["/name"])
    envelope(await admin("/admin/platform-keys", "{\"name\":\"\\u0000\"}"), 400, "schema_validation")
    const anonymous = await call(node.url, "POST", "/admin/workspaces", {
      raw: "{\"name\":\"\\u0000\"}",
      headers: { "content-type": "application/json" }
    })
    envelope(anonymous, 400, "schema_validation")
  })

  it("an escaped backslash before u0000 is not NUL: the body reaches the route unchanged", async () => {
    const name = "literally \\u0000 and \\\\u0000"
    const r = await post("/v1/streams", { name, templateId: MARKET })
    expect(r.status, r.text).toBe(201)
    expect(r.body.stream.name).toBe(name)
  })

  it("a JSON body nested 5,000 levels deep is 400, not 500", async () => {
    for (const text of ["[".repeat(5000) + "]".repeat(5000), "{\"a\":".repeat(5000) + "1" + "}".repeat(5000)]) {
      const error = envelope(await raw("/v1/streams", text), 400, "schema_validation")
      const message = "JSON may not be nested deeper than 64 levels."
      expect(error.details).toEqual([{ path: "", message, rule: "maxDepth" }])
      envelope(await admin("/admin/workspaces", text), 400, "schema_validation")
    }
  })

  it("64 levels are decoded as usual; 65 are refused", async () => {
    const nested = (levels: number) =>
      `{"name":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)},"templateId":"${MARKET}"}`
    const fits = envelope(await raw("/v1/streams", nested(64)), 400, "schema_validation")
    expect(fits.details.map((d) => [d.path, d.rule])).toEqual([["/name", "type"]])
    const deep = envelope(await raw("/v1/streams", nested(65)), 400, "schema_validation")
    expect(deep.details.map((d) => [d.path, d.rule])).toEqual([["", "maxDepth"]])
  })

  it("brackets inside strings do not count, and deep text that is not JSON is malformed_json", async () => {
    const r = await post("/v1/streams", { name: "[{".repeat(50), description: "\\\"[".repeat(100), templateId: MARKET })
    expect(r.status, r.text).toBe(201)
    envelope(await raw("/v1/streams", "[".repeat(5000)), 400, "malformed_json")
  })
})
