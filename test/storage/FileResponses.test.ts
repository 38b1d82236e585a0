import { HttpClient, HttpClientRequest, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import { blobResponse, contentDisposition, parseRange, zipResponse } from "../../src/http/FileResponses.js"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { buildZip } from "../../src/storage/Zip.js"
import { bytesOf, sha256, tempRoot } from "./helpers.js"

const KEY = "clips/ws1/clip.mp4"
const SIZE = 100_000
const body = bytesOf(SIZE, 3)

/** `/file?key=…` serves the blob (etag "v1", attachment with a non-ASCII name); a missing blob is a bare 404. */
const app = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (request.url.startsWith("/zip")) {
    const archive = yield* buildZip([{ name: "a.mp4", blobKey: KEY }, { name: "a.mp4", blobKey: KEY }])
    return zipResponse(archive, "Exports – März.zip")
  }
  const key = new URL(request.url, "http://local").searchParams.get("key") ?? KEY
  return yield* blobResponse(key, {
    contentType: "video/mp4",
    etag: "v1",
    disposition: "attachment",
    filename: "Ünïcode clip.mp4",
    cacheControl: "private, max-age=3600"
  })
}).pipe(Effect.catchTag("BlobNotFound", () => Effect.succeed(HttpServerResponse.empty({ status: 404 }))))

const StorageLive = LocalBlobStorage.layerAt(tempRoot("responses"))
const ServerLive = HttpServer.serve(app).pipe(
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provideMerge(StorageLive),
  Layer.tap((context) =>
    Effect.provide(
      Effect.flatMap(BlobStorage, (s) => s.putStream(KEY, Stream.make(body), { maxBytes: SIZE })),
      context
    )
  )
)

const get = (headers: Record<string, string> = {}, path = "/file") =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(path, { headers }))
    const bytes = new Uint8Array(yield* response.arrayBuffer)
    return { status: response.status, headers: response.headers, bytes }
  })

describe("parseRange", () => {
  it("reads one range against the size", () => {
    expect(parseRange(undefined, 10)).toEqual({ _tag: "Whole" })
    expect(parseRange("bytes=0-4", 10)).toEqual({ _tag: "Partial", start: 0, end: 4 })
    expect(parseRange("bytes=5-", 10)).toEqual({ _tag: "Partial", start: 5, end: 9 })
    expect(parseRange("bytes=-3", 10)).toEqual({ _tag: "Partial", start: 7, end: 9 })
    expect(parseRange("bytes=-30", 10)).toEqual({ _tag: "Partial", start: 0, end: 9 })
    expect(parseRange("bytes=8-99", 10)).toEqual({ _tag: "Partial", start: 8, end: 9 })
    expect(parseRange(" Bytes = 1-2 ", 10)).toEqual({ _tag: "Partial", start: 1, end: 2 })
    // Read by hand, not by a pattern: long runs of spaces (a header may hold 16 KB of them) are one pass.
    expect(parseRange(`bytes=${" ".repeat(16_000)}x`, 10)).toEqual({ _tag: "Whole" })
    expect(parseRange(`bytes =${" ".repeat(16_000)}0-1${" ".repeat(16_000)}`, 10)).toEqual({
      _tag: "Partial",
      start: 0,
      end: 1
    })
    expect(parseRange("items=0-1", 10)).toEqual({ _tag: "Whole" })
    expect(parseRange("bytes 0-1", 10)).toEqual({ _tag: "Whole" })
    expect(parseRange("bytes=10-", 10)).toEqual({ _tag: "Unsatisfiable" })
    expect(parseRange("bytes=10-20", 10)).toEqual({ _tag: "Unsatisfiable" })
    expect(parseRange("bytes=-0", 10)).toEqual({ _tag: "Unsatisfiable" })
    expect(parseRange("bytes=0-0", 0)).toEqual({ _tag: "Unsatisfiable" })
    expect(parseRange("bytes=5-4", 10)).toEqual({ _tag: "Whole" })
    expect(parseRange("bytes=0-1,4-5", 10)).toEqual({ _tag: "Whole" })
    expect(parseRange("items=0-1", 10)).toEqual({ _tag: "Whole" })
    expect(parseRange("bytes=a-b", 10)).toEqual({ _tag: "Whole" })
    expect(parseRange("bytes=", 10)).toEqual({ _tag: "Whole" })
  })
})

describe("contentDisposition", () => {
  it("ASCII names plainly, others with an RFC 8187 filename* and an ASCII fallback", () => {
    expect(contentDisposition("inline")).toBe("inline")
    expect(contentDisposition("attachment", "clip 9x16.mp4")).toBe(`attachment; filename="clip 9x16.mp4"`)
    expect(contentDisposition("attachment", "Ünïcode clip.mp4")).toBe(
      `attachment; filename="_n_code clip.mp4"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20clip.mp4`
    )
    expect(contentDisposition("inline", `a"b\\c'(d)*.mp4`)).toBe(
      `inline; filename="a_b_c'(d)*.mp4"; filename*=UTF-8''a%22b%5Cc%27%28d%29%2A.mp4`
    )
    expect(contentDisposition("inline", "evil\r\nset-cookie: x")).toBe(`inline; filename="evilset-cookie: x"`)
  })
})

layer(ServerLive)("blobResponse through a real NodeHttpServer", (it) => {
  it.effect("200 whole, with length, type, ranges, etag, disposition and cache headers", () =>
    Effect.gen(function*() {
      const r = yield* get()
      expect(r.status).toBe(200)
      expect(r.headers["content-type"]).toBe("video/mp4")
      expect(r.headers["content-length"]).toBe(String(SIZE))
      expect(r.headers["accept-ranges"]).toBe("bytes")
      expect(r.headers["etag"]).toBe(`"v1"`)
      expect(r.headers["cache-control"]).toBe("private, max-age=3600")
      expect(r.headers["content-disposition"]).toBe(contentDisposition("attachment", "Ünïcode clip.mp4"))
      expect(sha256(r.bytes)).toBe(sha256(body))
    }))

  it.effect("206 for bytes=a-b, a- and -n with content-range; an end past the file is clamped", () =>
    Effect.gen(function*() {
      const cases: Array<[string, number, number]> = [
        ["bytes=0-0", 0, 0],
        ["bytes=100-1099", 100, 1099],
        ["bytes=99000-", 99_000, SIZE - 1],
        ["bytes=-500", SIZE - 500, SIZE - 1],
        ["bytes=99990-200000", 99_990, SIZE - 1]
      ]
      for (const [range, start, end] of cases) {
        const r = yield* get({ range })
        expect(r.status, range).toBe(206)
        expect(r.headers["content-range"]).toBe(`bytes ${start}-${end}/${SIZE}`)
        expect(r.headers["content-length"]).toBe(String(end - start + 1))
        expect(sha256(r.bytes)).toBe(sha256(body.subarray(start, end + 1)))
      }
    }))

  it.effect("416 with content-range bytes */size and no body when the range starts past the end", () =>
    Effect.gen(function*() {
      for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 5}-${SIZE + 10}`, "bytes=-0"]) {
        const r = yield* get({ range })
        expect(r.status, range).toBe(416)
        expect(r.headers["content-range"]).toBe(`bytes */${SIZE}`)
        expect(r.bytes.length).toBe(0)
      }
    }))

  it.effect("several ranges, bad syntax, another unit or a stale If-Range: the whole file (200)", () =>
    Effect.gen(function*() {
      for (
        const headers of [
          { range: "bytes=0-1,10-11" },
          { range: "bytes=9-1" },
          { range: "lines=1-2" },
          { range: "bytes=0-9", "if-range": `"v0"` }
        ]
      ) {
        const r = yield* get(headers)
        expect(r.status, JSON.stringify(headers)).toBe(200)
        expect(r.bytes.length).toBe(SIZE)
      }
      const fresh = yield* get({ range: "bytes=0-9", "if-range": `"v1"` })
      expect(fresh.status).toBe(206)
    }))

  it.effect("304 for a matching If-None-Match; HEAD gives the headers only; a missing blob fails typed", () =>
    Effect.gen(function*() {
      const cached = yield* get({ "if-none-match": `W/"v0", "v1"` })
      expect(cached.status).toBe(304)
      expect(cached.headers["etag"]).toBe(`"v1"`)
      const client = yield* HttpClient.HttpClient
      const head = yield* client.execute(HttpClientRequest.head("/file"))
      expect(head.status).toBe(200)
      expect(head.headers["content-length"]).toBe(String(SIZE))
      const missing = yield* get({}, "/file?key=clips/ws1/gone.mp4")
      expect(missing.status).toBe(404)
    }))

  it.effect("zipResponse: application/zip attachment with the exact content-length", () =>
    Effect.gen(function*() {
      const r = yield* get({}, "/zip")
      expect(r.status).toBe(200)
      expect(r.headers["content-type"]).toBe("application/zip")
      expect(r.headers["content-length"]).toBe(String(r.bytes.length))
      expect(r.headers["content-disposition"]).toBe(contentDisposition("attachment", "Exports – März.zip"))
      expect(Buffer.from(r.bytes.subarray(0, 4))).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]))
      expect(r.bytes.length).toBeGreaterThan(2 * SIZE)
    }))
})
