import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, Stream } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { BlobNotFound } from "../../src/storage/Errors.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { buildZip, safeName, streamedZip, uniqueNames } from "../../src/storage/Zip.js"
import { bytesOf, collect, sha256, soon, tempRoot } from "./helpers.js"

const root = tempRoot("zip")
const StorageLive = LocalBlobStorage.layerAt(root)
const outDir = tempRoot("zip-out")

/** Names and sha256 of every entry, as Python's zipfile reads them (after `unzip -t` checked every CRC). */
const inspect = (zip: Uint8Array) => {
  const file = path.join(outDir, `${Math.random().toString(36).slice(2)}.zip`)
  fs.writeFileSync(file, zip)
  const tested = execFileSync("unzip", ["-t", file]).toString()
  expect(tested).toContain("No errors detected")
  const script = "import hashlib,json,sys,zipfile\n" +
    "z=zipfile.ZipFile(sys.argv[1])\n" +
    "print(json.dumps([[i.filename,i.compress_type,hashlib.sha256(z.read(i)).hexdigest()] for i in z.infolist()]))"
  return JSON.parse(execFileSync("python3", ["-c", script, file]).toString()) as Array<[string, number, string]>
}

/** Files under `dir` this process holds open (Linux). */
const openFilesUnder = (dir: string) =>
  fs.readdirSync("/proc/self/fd").flatMap((fd) => {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`)
      return target.startsWith(dir) ? [target] : []
    } catch {
      return []
    }
  })

describe("zip names", () => {
  it("are flat, safe and unique (a clash gets ` (2)` before the extension, ignoring case)", () => {
    expect(safeName("a/b\\c:d*e?.mp4")).toBe("a_b_c_d_e_.mp4")
    expect(safeName("  ..  ")).toBe("file")
    expect(safeName("x".repeat(300) + ".mp4")).toBe("x".repeat(196) + ".mp4")
    expect(uniqueNames(["Clip.mp4", "clip.mp4", "clip (2).mp4", "clip.mp4", "notes", "notes"])).toEqual([
      "Clip.mp4",
      "clip (2).mp4",
      "clip (2) (2).mp4",
      "clip (3).mp4",
      "notes",
      "notes (2)"
    ])
  })
})

describe("buildZip", () => {
  it.live("streams blobs and buffers into a zip that unzip accepts, with its exact size known up front", () =>
    Effect.gen(function*() {
      const storage = yield* BlobStorage
      const big = bytesOf(3_000_000, 5)
      const small = bytesOf(1234, 6)
      yield* storage.putStream("clips/ws/a.mp4", Stream.make(big), { maxBytes: 1e9 })
      yield* storage.putStream("clips/ws/b.mp4", Stream.make(small), { maxBytes: 1e9 })
      const frame = bytesOf(500, 7)
      const archive = yield* buildZip([
        { name: "Fund update 9x16 English.mp4", blobKey: "clips/ws/a.mp4" },
        { name: "Fund update 9x16 English.mp4", blobKey: "clips/ws/b.mp4" },
        { name: "Übersicht – 日本語.png", buffer: frame },
        { name: "empty.txt", buffer: new Uint8Array() }
      ])
      expect(archive.names).toEqual([
        "Fund update 9x16 English.mp4",
        "Fund update 9x16 English (2).mp4",
        "Übersicht – 日本語.png",
        "empty.txt"
      ])
      const zip = yield* collect(archive.stream)
      expect(archive.byteSize).toEqual(Option.some(zip.length))
      expect(inspect(zip)).toEqual([
        ["Fund update 9x16 English.mp4", 0, sha256(big)],
        ["Fund update 9x16 English (2).mp4", 0, sha256(small)],
        ["Übersicht – 日本語.png", 0, sha256(frame)],
        ["empty.txt", 0, sha256(new Uint8Array())]
      ])
      // The same archive can be streamed again (each run builds afresh).
      expect(sha256(yield* collect(archive.stream))).toBe(sha256(zip))
    }).pipe(Effect.provide(StorageLive)))

  it.live("deflate on request: smaller, size unknown up front, still valid", () =>
    Effect.gen(function*() {
      const text = new TextEncoder().encode("frame ".repeat(10_000))
      const archive = yield* buildZip([{ name: "a.txt", buffer: text }], { compress: true })
      expect(archive.byteSize).toEqual(Option.none())
      const zip = yield* collect(archive.stream)
      expect(zip.length).toBeLessThan(text.length / 10)
      expect(inspect(zip)).toEqual([["a.txt", 8, sha256(text)]])
    }).pipe(Effect.provide(StorageLive)))

  it.live("a missing blob fails before anything is sent; one deleted meanwhile fails the stream", () =>
    Effect.gen(function*() {
      const storage = yield* BlobStorage
      const early = yield* Effect.flip(buildZip([{ name: "x.mp4", blobKey: "clips/ws/none.mp4" }]))
      expect(early).toEqual(new BlobNotFound({ key: "clips/ws/none.mp4" }))
      yield* storage.putStream("clips/ws/soon-gone.mp4", Stream.make(bytesOf(10)), { maxBytes: 100 })
      const archive = yield* buildZip([{ name: "x.mp4", blobKey: "clips/ws/soon-gone.mp4" }])
      yield* storage.delete("clips/ws/soon-gone.mp4")
      const late = yield* Effect.flip(collect(archive.stream))
      expect(late).toEqual(new BlobNotFound({ key: "clips/ws/soon-gone.mp4" }))
    }).pipe(Effect.provide(StorageLive)))

  it.live("a reader that stops early (client gone) stops cleanly, and later zips still work", () =>
    Effect.gen(function*() {
      const storage = yield* BlobStorage
      yield* storage.putStream("clips/ws/long.mp4", Stream.make(bytesOf(5_000_000, 8)), { maxBytes: 1e9 })
      const archive = yield* buildZip([
        { name: "1.mp4", blobKey: "clips/ws/long.mp4" },
        { name: "2.mp4", blobKey: "clips/ws/long.mp4" }
      ])
      const head = yield* Stream.runCollect(Stream.take(archive.stream, 3))
      expect(head.length).toBe(3)
      // The files close as the stopped stream's finalizers run: soon, not at once (a loaded machine took over 50 ms).
      expect(yield* soon(() => openFilesUnder(root), (files) => files.length === 0)).toEqual([])
      const again = yield* collect(archive.stream)
      expect(Option.some(again.length)).toEqual(archive.byteSize)
    }).pipe(Effect.provide(StorageLive)))
})

describe("streamedZip", () => {
  // Keyframes: 60 full-size PNGs drawn for one request were once all held until the zip began. Each entry must be asked
  // for only when the reader has taken the ones before, whatever the number of entries.
  it.live("asks for each entry as the reader takes the zip, holding a few, and makes a zip unzip accepts", () =>
    Effect.gen(function*() {
      const size = 1024 * 1024
      const count = 60
      const names = Array.from({ length: count }, (_, i) => `frame ${i}.png`)
      const entryOf = (i: number) => new Uint8Array(size).fill(i + 1)
      let made = 0
      const entries = Stream.range(0, count - 1).pipe(
        Stream.mapEffect((i) => Effect.sync(() => (made++, entryOf(i))), { concurrency: 2 })
      )
      const archive = streamedZip(names, entries)
      expect(archive.byteSize).toEqual(Option.none())
      const chunks: Array<Buffer> = []
      let received = 0
      let madeAtFirstByte = -1
      let mostAhead = 0
      yield* Stream.runForEach(archive.stream, (chunk) =>
        Effect.sync(() => {
          if (madeAtFirstByte < 0) madeAtFirstByte = made
          received += chunk.length
          chunks.push(Buffer.from(chunk))
          mostAhead = Math.max(mostAhead, made - Math.floor(received / size))
        }))
      // Bounded by the two drawn at once, the few the pipeline buffers, and the one being read: not by the count.
      expect(madeAtFirstByte).toBeLessThanOrEqual(8)
      expect(mostAhead).toBeLessThanOrEqual(8)
      expect(made).toBe(count)
      const listed = inspect(Buffer.concat(chunks))
      expect(listed.map(([name]) => name)).toEqual(names)
      expect(listed.map(([, , hash]) => hash)).toEqual(names.map((_, i) => sha256(entryOf(i))))
    }))

  it.live("an entry that fails fails the stream", () =>
    Effect.gen(function*() {
      const entries = Stream.concat(Stream.succeed(bytesOf(10)), Stream.fail("no second frame" as const))
      const result = yield* Effect.either(collect(streamedZip(["a", "b"], entries).stream))
      expect(Either.getLeft(result)).toEqual(Option.some("no second frame"))
    }))
})
