import { beforeAll, describe, expect, it } from "vitest"
import { type Answer, client, workspaceWithKey } from "../support/Client.js"
import { png } from "../support/MediaFiles.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"

// The request rules of the edge (docs/integrating.md "Request bodies"), each once a fault the fuzz pinned (test/fuzz/KnownBugs.ts).
let key: string
let api: ReturnType<typeof client>

const { node } = useNode({ label: "request_bodies" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, ["*"], "Bodies")
  key = ws.apiKey
  api = ws.api
}, 120_000)

/** Well under the fuzz's 8 s: an answer that waits for anything but the body's end is too late. */
const PROMPTLY_MS = 3_000

const send = async (
  path: string,
  headers: Record<string, string>,
  body?: RequestInit["body"],
  as = key
): Promise<Answer & { readonly ms: number }> => {
  const started = Date.now()
  const response = await fetch(`${node.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${as}`, ...headers },
    signal: AbortSignal.timeout(PROMPTLY_MS),
    ...(body === undefined ? {} : { body, duplex: "half" } as RequestInit)
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text === "" ? undefined : JSON.parse(text),
    ms: Date.now() - started
  }
}

const BOUNDARY = "----cwbodies"
const FORM = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` }
const filePart = (content: string, name = "a.png") =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
  `Content-Type: application/octet-stream\r\n\r\n${content}\r\n`
const closing = `--${BOUNDARY}--\r\n`
const MISSING = "01ARZ3NDEKTSV4RRFFQ69G5FAV"

/** A body sent chunked (no Content-Length), one piece per chunk, a moment apart. */
const chunked = (pieces: ReadonlyArray<Uint8Array>) => {
  let next = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const piece = pieces[next++]
      if (piece === undefined) return controller.close()
      controller.enqueue(piece)
      await new Promise((r) => setTimeout(r, 20))
    }
  })
}

const counts = async () => ({
  media: (await api.get("/v1/media")).body.files.length as number,
  brands: (await api.get("/v1/brands")).body.brands.length as number,
  channels: (await api.get("/v1/channels")).body.channels.length as number
})

const wholeBody = (r: Answer, status: number, code: string, rule: string | undefined) => {
  const error = expectError(r, status, code)
  expect(error.details).toEqual([expect.objectContaining({ path: "", ...(rule === undefined ? {} : { rule }) })])
  return error
}

describe("multipart bodies", () => {
  it("multipart/form-data without a boundary is 415, not a fault", async () => {
    const before = await counts()
    const r = await send("/v1/media", { "content-type": "multipart/form-data" }, filePart("x") + closing)
    expect(wholeBody(r, 415, "unsupported_media_type", "boundary").message).toContain("boundary")
    // A JSON route the platform would read the form for is held to the same rule.
    wholeBody(
      await send("/v1/brands", { "content-type": "multipart/form-data; charset=utf-8" }, closing),
      415,
      "unsupported_media_type",
      "boundary"
    )
    expect(await counts()).toEqual(before)
  })

  it("a well-formed form sent to a route that takes JSON is 415, unread", async () => {
    const before = await counts()
    const form = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nFrom a form\r\n${closing}`
    for (const path of ["/v1/brands", "/v1/channels", "/v1/queues"]) {
      const error = wholeBody(await send(path, FORM, form), 415, "unsupported_media_type", "contentType")
      expect(error.message).toContain("application/json")
    }
    expect(await counts()).toEqual(before)
  })

  it("a part whose headers never end is 400, not a fault of the platform's parser", async () => {
    const before = await counts()
    for (const filename of ["", "; filename=\"a.png\""]) {
      const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"${filename}\r\n${closing}`
      const error = wholeBody(await send("/v1/media", FORM, body), 400, "schema_validation", undefined)
      expect(error.message).toContain("headers do not end")
    }
    expect(await counts()).toEqual(before)
  })

  it("a form that ends before its closing boundary, or is empty, is 400 as soon as the body ends", async () => {
    const before = await counts()
    for (
      const body of [filePart("x"), "", `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"--${BOUNDARY}--`]
    ) {
      const r = await send("/v1/media", FORM, body)
      expect(wholeBody(r, 400, "schema_validation", "multipartClose").message).toContain("closing boundary")
    }
    // Sent in chunks (no length announced) the end is still seen, and on a JSON route as well.
    const encoder = new TextEncoder()
    const r = await send("/v1/media", FORM, chunked([encoder.encode(filePart("x")), encoder.encode("more")]))
    wholeBody(r, 400, "schema_validation", "multipartClose")
    // The receipt form, read by the platform whole before the route runs, the same.
    wholeBody(
      await send(`/v1/receipts/${MISSING}?exp=1&sig=x`, FORM, filePart("x")),
      400,
      "schema_validation",
      "multipartClose"
    )
    expect(await counts()).toEqual(before)
  })

  it("a closed form is taken, its close delimiter split across chunks", async () => {
    const encoder = new TextEncoder()
    const head = encoder.encode(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="split.png"\r\n` +
        "Content-Type: image/png\r\n\r\n"
    )
    const tail = `\r\n--${BOUNDARY}--\r\n`
    const r = await send(
      "/v1/media",
      FORM,
      chunked([head, png(8, 8), encoder.encode(tail.slice(0, 7)), encoder.encode(tail.slice(7))])
    )
    expect(r.status, r.text).toBe(201)
    expect(r.body.file.name).toBe("split.png")
  })
})

describe("JSON bodies", () => {
  const JSON_TYPE = { "content-type": "application/json" }

  it("an empty body sent as JSON is 400 malformed_json, a JSON null 400 schema_validation; neither stores", async () => {
    const before = await counts()
    for (const path of ["/v1/brands", "/v1/channels"]) {
      wholeBody(await send(path, JSON_TYPE, ""), 400, "malformed_json", "required")
      for (const body of ["null", " null\n"]) {
        const error = wholeBody(await send(path, JSON_TYPE, body), 400, "schema_validation", "type")
        expect(error.details[0]).toMatchObject({ expected: "object", received: "null" })
      }
    }
    expect(await counts()).toEqual(before)
  })

  it("a body with no Content-Type, another type, or JSON in a charset other than UTF-8 is 415", async () => {
    const before = await counts()
    const body = JSON.stringify({ name: "Refused" })
    const refused: Array<[string, Record<string, string>]> = [
      ["/v1/brands", {}],
      ["/v1/channels", {}],
      ["/v1/queues", {}],
      ["/v1/brands", { "content-type": "application/json; charset=utf-16" }],
      ["/v1/brands", { "content-type": "application/json; charset=\"ISO-8859-1\"" }],
      ["/v1/brands", { "content-type": "application/vnd.api+json" }],
      ["/v1/brands", { "content-type": "text/plain; x=application/json" }]
    ]
    for (const [path, headers] of refused) {
      expect(
        expectError(await send(path, headers, new TextEncoder().encode(body)), 415, "unsupported_media_type").details
      )
        .toHaveLength(1)
    }
    const adminBody = new TextEncoder().encode(JSON.stringify({ name: "Refused" }))
    expectError(await send("/admin/workspaces", {}, adminBody, node.adminToken), 415, "unsupported_media_type")
    expect(await counts()).toEqual(before)
  })

  it("UTF-8 in any spelling is taken, and a request without a body needs no Content-Type", async () => {
    const body = (name: string) => JSON.stringify({ name })
    expect((await send("/v1/brands", { "content-type": "application/json; charset=UTF-8" }, body("Upper"))).status)
      .toBe(201)
    expect((await send("/v1/brands", { "content-type": "Application/JSON;charset=\"utf-8\"" }, body("Quoted"))).status)
      .toBe(201)
    expect((await send("/v1/brands", { "content-type": "application/json; charset=utf8" }, body("Alias"))).status).toBe(
      201
    )
    const bare = await send("/v1/brands", {})
    expect(bare.status, bare.text).toBe(201)
    expect(bare.body.brand.name).toMatch(/^New brand \d+$/)
    const deleted = await send(`/v1/brands/${bare.body.brand.id}/delete`, {})
    expect(deleted.status, deleted.text).toBe(200)
  })
})

describe("the node's own account", () => {
  // Last, after every request above: the routes an unclosed form interrupts end quietly, and nothing else faulted.
  it("logged no fault for any of these requests", () => {
    expect(node.output()).toContain("Listening on")
    expect(node.output()).not.toContain("Unhandled fault")
  })
})
