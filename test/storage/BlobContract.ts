import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option, Stream } from "effect"
import * as fs from "node:fs"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { BlobCorrupt, BlobNotFound, BlobTooLarge } from "../../src/storage/Errors.js"
import { bytesOf, chunked, collect, sha256 } from "./helpers.js"

/**
 * What every adapter of the `BlobStorage` port promises, run against each (the local folder and an S3-compatible
 * server on loopback). Small files only, so it stays quick; sizes past one multipart part are in `npm run bench:storage`
 * and one test here.
 */
export const blobContract = (name: string, layer: Layer.Layer<BlobStorage>) =>
  describe(`BlobStorage contract: ${name}`, () => {
    it.layer(layer, { timeout: 60_000 })((it) => {
      it.effect("put, stat, read, read a range (clamped at the end), delete twice, then missing", () =>
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
          yield* storage.delete("clips/ws1/a.mp4")
          yield* storage.delete("clips/ws1/a.mp4")
          expect(yield* storage.stat("clips/ws1/a.mp4")).toEqual(Option.none())
          const missing = yield* Effect.flip(collect(storage.readStream("clips/ws1/a.mp4")))
          expect(missing).toEqual(new BlobNotFound({ key: "clips/ws1/a.mp4" }))
        }))

      it.effect("an empty blob is a blob", () =>
        Effect.gen(function*() {
          const storage = yield* BlobStorage
          const stored = yield* storage.putStream("media/ws1/empty", Stream.empty, { maxBytes: 10 })
          expect(stored).toEqual({ key: "media/ws1/empty", byteSize: 0, sha256: sha256(new Uint8Array()) })
          expect(yield* storage.stat("media/ws1/empty")).toEqual(Option.some({ byteSize: 0 }))
        }))

      it.effect("past maxBytes: BlobTooLarge, the source stops, the old blob stays whole", () =>
        Effect.gen(function*() {
          const storage = yield* BlobStorage
          yield* storage.putStream("media/ws1/logo.png", Stream.make(bytesOf(10)), { maxBytes: 10 })
          let pulled = 0
          const endless = Stream.repeatEffect(Effect.sync(() => bytesOf(1000, ++pulled)))
          const error = yield* Effect.flip(storage.putStream("media/ws1/logo.png", endless, { maxBytes: 50_000 }))
          expect(error).toEqual(new BlobTooLarge({ key: "media/ws1/logo.png", maxBytes: 50_000 }))
          expect(pulled).toBeLessThan(200)
          expect(yield* storage.stat("media/ws1/logo.png")).toEqual(Option.some({ byteSize: 10 }))
          const exact = yield* storage.putStream("media/ws1/exact", chunked(bytesOf(4096), 1000), { maxBytes: 4096 })
          expect(exact.byteSize).toBe(4096)
        }))

      it.effect("a failing source leaves nothing under the key, past one multipart part too", () =>
        Effect.gen(function*() {
          const storage = yield* BlobStorage
          const small = Stream.concat(Stream.make(bytesOf(1000)), Stream.fail("source broke" as const))
          expect(yield* Effect.flip(storage.putStream("media/ws1/broken", small, { maxBytes: 1e9 }))).toBe(
            "source broke"
          )
          // 9 MiB then a failure: the first part of a multipart upload went out before the source broke.
          const big = Stream.concat(chunked(bytesOf(9 * 1024 * 1024, 3), 256 * 1024), Stream.fail("cut off" as const))
          expect(yield* Effect.flip(storage.putStream("media/ws1/big", big, { maxBytes: 1e9 }))).toBe("cut off")
          expect(yield* storage.stat("media/ws1/broken")).toEqual(Option.none())
          expect(yield* storage.stat("media/ws1/big")).toEqual(Option.none())
          expect(yield* storage.listWrittenBefore("media", Date.now() + 60_000)).not.toContain("media/ws1/big")
        }))

      it.effect("a file past one multipart part is stored whole and read back by range", () =>
        Effect.gen(function*() {
          const storage = yield* BlobStorage
          const bytes = bytesOf(9 * 1024 * 1024 + 17, 5)
          const stored = yield* storage.putStream("clips/ws1/long.mp4", chunked(bytes, 64 * 1024), { maxBytes: 1e9 })
          expect(stored.sha256).toBe(sha256(bytes))
          const tail = yield* collect(storage.readStream("clips/ws1/long.mp4", { start: 8 * 1024 * 1024, end: 1e9 }))
          expect(sha256(tail)).toBe(sha256(bytes.subarray(8 * 1024 * 1024)))
          yield* storage.verify("clips/ws1/long.mp4", stored.sha256)
        }))

      it.effect("concurrent writers of one key: the last wins whole, never a mix", () =>
        Effect.gen(function*() {
          const storage = yield* BlobStorage
          const versions = Array.from({ length: 6 }, (_, i) => bytesOf(200_000 + i * 1000, i + 1))
          yield* Effect.forEach(
            versions,
            (bytes) => storage.putStream("clips/ws1/race.mp4", chunked(bytes, 3000), { maxBytes: 1e9 }),
            { concurrency: "unbounded" }
          )
          const final = yield* collect(storage.readStream("clips/ws1/race.mp4"))
          expect(versions.map(sha256)).toContain(sha256(final))
        }))

      it.effect("putFile takes a producer's temp file in and drops it; an unused temp path is removed", () =>
        Effect.gen(function*() {
          const storage = yield* BlobStorage
          const bytes = bytesOf(123_456, 9)
          const temp = yield* Effect.scoped(Effect.gen(function*() {
            const temp = yield* storage.tempPath(".mp4")
            expect(temp.endsWith(".mp4")).toBe(true)
            fs.writeFileSync(temp, bytes)
            const stored = yield* storage.putFile("clips/ws2/b.mp4", temp)
            expect(stored).toEqual({ key: "clips/ws2/b.mp4", byteSize: 123_456, sha256: sha256(bytes) })
            expect(fs.existsSync(temp)).toBe(false)
            const unused = yield* storage.tempPath()
            fs.writeFileSync(unused, "half a render")
            return unused
          }))
          expect(fs.existsSync(temp)).toBe(false)
          expect(sha256(yield* collect(storage.readStream("clips/ws2/b.mp4")))).toBe(sha256(bytes))
        }))

      it.effect("verify: intact passes (twice), changed bytes are BlobCorrupt, a missing blob is BlobNotFound", () =>
        Effect.gen(function*() {
          const storage = yield* BlobStorage
          const first = yield* storage.putStream("clips/ws3/v.mp4", Stream.make(bytesOf(5000, 1)), { maxBytes: 1e6 })
          yield* storage.verify("clips/ws3/v.mp4", first.sha256)
          yield* storage.verify("clips/ws3/v.mp4", first.sha256.toUpperCase())
          // Another writer (another node, an operator) replaces the bytes behind the recorded checksum.
          const other = yield* storage.putStream("clips/ws3/v.mp4", Stream.make(bytesOf(5000, 2)), { maxBytes: 1e6 })
          const corrupt = yield* Effect.flip(storage.verify("clips/ws3/v.mp4", first.sha256))
          expect(corrupt).toEqual(
            new BlobCorrupt({ key: "clips/ws3/v.mp4", expected: first.sha256, actual: other.sha256 })
          )
          yield* storage.delete("clips/ws3/v.mp4")
          const missing = yield* Effect.flip(storage.verify("clips/ws3/v.mp4", other.sha256))
          expect(missing).toEqual(new BlobNotFound({ key: "clips/ws3/v.mp4" }))
        }))

      it.effect("readableFile: a file with the blob's bytes while the scope is open; missing is BlobNotFound", () =>
        Effect.gen(function*() {
          const storage = yield* BlobStorage
          const bytes = bytesOf(70_000, 4)
          yield* storage.putStream("media/ws4/pic.png", Stream.make(bytes), { maxBytes: 1e6 })
          const file = yield* Effect.scoped(Effect.gen(function*() {
            const file = yield* storage.readableFile("media/ws4/pic.png")
            expect(file.endsWith(".png")).toBe(true)
            expect(sha256(fs.readFileSync(file))).toBe(sha256(bytes))
            return file
          }))
          expect(typeof file).toBe("string")
          const missing = yield* Effect.flip(Effect.scoped(storage.readableFile("media/ws4/none.png")))
          expect(missing).toEqual(new BlobNotFound({ key: "media/ws4/none.png" }))
        }))

      it.effect("listWrittenBefore lists the folder's keys written before the time, and only those", () =>
        Effect.gen(function*() {
          const storage = yield* BlobStorage
          yield* storage.putStream("brands/ws5/a.png", Stream.make(bytesOf(10)), { maxBytes: 100 })
          yield* storage.putStream("brands/ws5/sub/b.png", Stream.make(bytesOf(10)), { maxBytes: 100 })
          yield* storage.putStream("brandsx/ws5/c.png", Stream.make(bytesOf(10)), { maxBytes: 100 })
          const later = (yield* storage.listWrittenBefore("brands", Date.now() + 60_000)).filter((k) =>
            k.includes("ws5")
          )
          expect(later.sort()).toEqual(["brands/ws5/a.png", "brands/ws5/sub/b.png"])
          expect(yield* storage.listWrittenBefore("brands", Date.now() - 3_600_000)).toEqual([])
        }))

      it.effect("keys that are absolute or climb out are refused as defects", () =>
        Effect.gen(function*() {
          const storage = yield* BlobStorage
          for (const key of ["/etc/passwd", "../x", "clips/../../x", ".tmp/x", "a//b", "a/", ""]) {
            const exit = yield* Effect.exit(storage.stat(key))
            expect(Exit.isFailure(exit) && Cause.isDie(exit.cause), key).toBe(true)
            const put = yield* Effect.exit(storage.putStream(key, Stream.make(bytesOf(1)), { maxBytes: 10 }))
            expect(Exit.isFailure(put) && Cause.isDie(put.cause), key).toBe(true)
          }
        }))
    })
  })
