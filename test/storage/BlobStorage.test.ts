import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, Option, Stream } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { BlobNotFound, BlobTooLarge } from "../../src/storage/Errors.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { bytesOf, chunked, collect, listFiles, sha256, soon, tempRoot } from "./helpers.js"

const root = tempRoot("blobs")
const StorageLive = LocalBlobStorage.layerAt(root)
const tmpFiles = () => listFiles(path.join(root, ".tmp"))

describe("BlobStorage (local files)", () => {
  it.effect("put, stat, read, read a range, delete (twice)", () =>
    Effect.gen(function*() {
      const storage = yield* BlobStorage
      const bytes = bytesOf(300_000)
      const stored = yield* storage.putStream("clips/ws1/a.mp4", chunked(bytes, 7_000), { maxBytes: 1_000_000 })
      expect(stored).toEqual({ key: "clips/ws1/a.mp4", byteSize: 300_000, sha256: sha256(bytes) })
      expect(yield* storage.stat("clips/ws1/a.mp4")).toEqual(Option.some({ byteSize: 300_000 }))
      expect(sha256(yield* collect(storage.readStream("clips/ws1/a.mp4")))).toBe(sha256(bytes))
      const part = yield* collect(storage.readStream("clips/ws1/a.mp4", { start: 1000, end: 199_999 }))
      expect(sha256(part)).toBe(sha256(bytes.subarray(1000, 200_000)))
      const clamped = yield* collect(storage.readStream("clips/ws1/a.mp4", { start: 299_990, end: 10_000_000 }))
      expect(clamped.length).toBe(10)
      const readable = yield* Effect.scoped(storage.readableFile("clips/ws1/a.mp4"))
      expect(readable).toBe(path.join(root, "clips", "ws1", "a.mp4"))

      yield* storage.delete("clips/ws1/a.mp4")
      yield* storage.delete("clips/ws1/a.mp4")
      expect(yield* storage.stat("clips/ws1/a.mp4")).toEqual(Option.none())
      const missing = yield* Effect.flip(collect(storage.readStream("clips/ws1/a.mp4")))
      expect(missing).toEqual(new BlobNotFound({ key: "clips/ws1/a.mp4" }))
      expect(tmpFiles()).toEqual([])
    }).pipe(Effect.provide(StorageLive)))

  it.effect("an empty blob is a blob", () =>
    Effect.gen(function*() {
      const storage = yield* BlobStorage
      const stored = yield* storage.putStream("media/ws1/empty", Stream.empty, { maxBytes: 10 })
      expect(stored.byteSize).toBe(0)
      expect(stored.sha256).toBe(sha256(new Uint8Array()))
      expect(yield* storage.stat("media/ws1/empty")).toEqual(Option.some({ byteSize: 0 }))
    }).pipe(Effect.provide(StorageLive)))

  it.effect("past maxBytes: BlobTooLarge at once, the source stops, nothing is left, an old blob stays", () =>
    Effect.gen(function*() {
      const storage = yield* BlobStorage
      yield* storage.putStream("media/ws1/logo.png", Stream.make(bytesOf(10)), { maxBytes: 10 })
      let pulled = 0
      const endless = Stream.repeatEffect(Effect.sync(() => {
        pulled++
        return bytesOf(1000, pulled)
      }))
      const error = yield* Effect.flip(storage.putStream("media/ws1/logo.png", endless, { maxBytes: 50_000 }))
      expect(error).toEqual(new BlobTooLarge({ key: "media/ws1/logo.png", maxBytes: 50_000 }))
      expect(error.message).toBe("More than 50000 bytes for media/ws1/logo.png.")
      expect(pulled).toBeLessThan(60)
      // Exactly at the limit is fine.
      const exact = yield* storage.putStream("media/ws1/exact", chunked(bytesOf(4096), 1000), { maxBytes: 4096 })
      expect(exact.byteSize).toBe(4096)
      expect(yield* storage.stat("media/ws1/logo.png")).toEqual(Option.some({ byteSize: 10 }))
      expect(tmpFiles()).toEqual([])
    }).pipe(Effect.provide(StorageLive)))

  it.live("a failing or interrupted source leaves nothing under the key nor in tmp", () =>
    Effect.gen(function*() {
      const storage = yield* BlobStorage
      const failing = Stream.concat(Stream.make(bytesOf(1000)), Stream.fail("source broke" as const))
      const error = yield* Effect.flip(storage.putStream("media/ws1/broken", failing, { maxBytes: 1e9 }))
      expect(error).toBe("source broke")
      const slow = Stream.concat(Stream.make(bytesOf(1000)), Stream.never)
      const fiber = yield* Effect.fork(storage.putStream("media/ws1/slow", slow, { maxBytes: 1e9 }))
      // Its temporary file appears as the first bytes arrive.
      expect(yield* soon(() => tmpFiles().length, (n) => n > 0)).toBe(1)
      yield* Fiber.interrupt(fiber)
      expect(yield* storage.stat("media/ws1/broken")).toEqual(Option.none())
      expect(yield* storage.stat("media/ws1/slow")).toEqual(Option.none())
      expect(tmpFiles()).toEqual([])
    }).pipe(Effect.provide(StorageLive)))

  it.live("concurrent writers of one key: the last rename wins whole, never a mix", () =>
    Effect.gen(function*() {
      const storage = yield* BlobStorage
      const versions = Array.from({ length: 8 }, (_, i) => bytesOf(200_000 + i * 1000, i + 1))
      const results = yield* Effect.forEach(
        versions,
        (bytes) => storage.putStream("clips/ws1/race.mp4", chunked(bytes, 3000), { maxBytes: 1e9 }),
        { concurrency: "unbounded" }
      )
      expect(results.map((r) => r.sha256)).toEqual(versions.map(sha256))
      const final = yield* collect(storage.readStream("clips/ws1/race.mp4"))
      expect(versions.map(sha256)).toContain(sha256(final))
      expect(tmpFiles()).toEqual([])
    }).pipe(Effect.provide(StorageLive)))

  it.effect("putFile moves a producer's temp file in; the temp path is cleaned if never used", () =>
    Effect.gen(function*() {
      const storage = yield* BlobStorage
      const bytes = bytesOf(123_456, 9)
      const stored = yield* Effect.scoped(Effect.gen(function*() {
        const temp = yield* storage.tempPath(".mp4")
        expect(temp.endsWith(".mp4")).toBe(true)
        expect(path.dirname(temp)).toBe(path.join(root, ".tmp"))
        fs.writeFileSync(temp, bytes)
        const stored = yield* storage.putFile("clips/ws2/b.mp4", temp)
        expect(fs.existsSync(temp)).toBe(false)
        return stored
      }))
      expect(stored).toEqual({ key: "clips/ws2/b.mp4", byteSize: 123_456, sha256: sha256(bytes) })
      expect(sha256(fs.readFileSync(path.join(root, "clips/ws2/b.mp4")))).toBe(sha256(bytes))
      const unused = yield* Effect.scoped(Effect.gen(function*() {
        const temp = yield* storage.tempPath()
        fs.writeFileSync(temp, "half a render")
        return temp
      }))
      expect(fs.existsSync(unused)).toBe(false)
      expect(tmpFiles()).toEqual([])
    }).pipe(Effect.provide(StorageLive)))

  // /dev/shm is tmpfs on Linux CI and dev machines; where it is the same device as the store, there is nothing to test.
  const otherDevice = fs.existsSync("/dev/shm") && fs.statSync("/dev/shm").dev !== fs.statSync(root).dev
  it.effect.skipIf(!otherDevice)(
    "putFile from another file system copies, flushes, renames, drops the source",
    () =>
      Effect.gen(function*() {
        const storage = yield* BlobStorage
        const bytes = bytesOf(64_000, 11)
        const source = path.join("/dev/shm", `cw-test-${process.pid}-${Date.now()}.mp4`)
        fs.writeFileSync(source, bytes)
        const stored = yield* storage.putFile("clips/ws2/far.mp4", source)
        expect(stored.sha256).toBe(sha256(bytes))
        expect(fs.existsSync(source)).toBe(false)
        expect(sha256(fs.readFileSync(path.join(root, "clips/ws2/far.mp4")))).toBe(sha256(bytes))
        expect(tmpFiles()).toEqual([])
      }).pipe(Effect.provide(StorageLive))
  )

  it.effect("keys that are absolute, climb out or name the temp folder are refused (defects)", () =>
    Effect.gen(function*() {
      const storage = yield* BlobStorage
      const bad = ["/etc/passwd", "../x", "clips/../../x", "clips/./x", ".tmp/x", "a//b", "a/", "", "a\\b", "a\u0000b"]
      for (const key of bad) {
        const exit = yield* Effect.exit(storage.stat(key))
        expect(Exit.isFailure(exit) && Cause.isDie(exit.cause), key).toBe(true)
        const put = yield* Effect.exit(storage.putStream(key, Stream.make(bytesOf(1)), { maxBytes: 10 }))
        expect(Exit.isFailure(put) && Cause.isDie(put.cause), key).toBe(true)
      }
      expect(Exit.isSuccess(yield* Effect.exit(storage.stat("brands/ws-1/logo_v2.final.png")))).toBe(true)
    }).pipe(Effect.provide(StorageLive)))

  it.effect("a second store on the same folder (another node on the shared volume) sees the same blobs", () =>
    Effect.gen(function*() {
      const one = yield* BlobStorage
      yield* one.putStream("media/shared/x.bin", Stream.make(bytesOf(77)), { maxBytes: 100 })
      const other = yield* Effect.provide(BlobStorage, LocalBlobStorage.layerAt(root))
      expect(yield* other.stat("media/shared/x.bin")).toEqual(Option.some({ byteSize: 77 }))
    }).pipe(Effect.provide(StorageLive)))

  it.live("stale temporary files of crashed writers are swept at start; fresh ones stay", () =>
    Effect.gen(function*() {
      const tmp = path.join(root, ".tmp")
      fs.mkdirSync(tmp, { recursive: true })
      fs.writeFileSync(path.join(tmp, "old"), "x")
      const dayAgo = new Date(Date.now() - 25 * 3600_000)
      fs.utimesSync(path.join(tmp, "old"), dayAgo, dayAgo)
      fs.writeFileSync(path.join(tmp, "fresh"), "x")
      yield* Effect.provide(BlobStorage, LocalBlobStorage.layerAt(root))
      expect(tmpFiles()).toEqual(["fresh"])
      fs.rmSync(path.join(tmp, "fresh"))
    }))
})
