import { DeleteObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, Option, Stream } from "effect"
import * as fs from "node:fs"
import { afterAll, beforeAll } from "vitest"
import { causeToEnvelope } from "../../src/http/Envelope.js"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { BlobNotFound, isStoreUnavailable, StoreUnavailable } from "../../src/storage/Errors.js"
import { requireIntact } from "../../src/storage/Integrity.js"
import { makeS3Client } from "../../src/storage/s3/S3Settings.js"
import { waitForStore } from "../../src/storage/StoreWait.js"
import { bytesOf, chunked, collect, sha256 } from "./helpers.js"
import { type S3Harness, S3RVER_CREDENTIALS, startS3, TEST_BUCKET } from "./S3Harness.js"
import { s3StorageLayer } from "./S3Layer.js"

let s3: S3Harness
beforeAll(async () => {
  s3 = await startS3("faults")
})
afterAll(() => s3.close())

/** Someone else's client on the same bucket: an operator, a lifecycle rule, another program. */
const outsider = () =>
  makeS3Client(
    { bucket: TEST_BUCKET, prefix: "", endpoint: s3.endpoint, region: "us-east-1", forcePathStyle: true },
    S3RVER_CREDENTIALS
  )

const diesStoreDown = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(
    Effect.exit(effect),
    (exit) => Exit.isFailure(exit) && Option.exists(Cause.dieOption(exit.cause), isStoreUnavailable)
  )

// On the live clock (the store's timeouts and the waits are real), each test with its own client.
const storageLive = s3StorageLayer(() => s3, "")

describe("S3 adapter faults", () => {
  it.live(
    "store down: every call dies StoreUnavailable soon (answered 503 with a retry hint); back up, all works",
    () =>
      Effect.gen(function*() {
        const storage = yield* BlobStorage
        yield* storage.putStream("media/ws/a.png", Stream.make(bytesOf(1000)), { maxBytes: 1e6 })
        yield* Effect.promise(() => s3.stop())
        const started = Date.now()
        expect(yield* diesStoreDown(storage.stat("media/ws/a.png"))).toBe(true)
        expect(yield* diesStoreDown(collect(storage.readStream("media/ws/a.png")))).toBe(true)
        expect(yield* diesStoreDown(storage.putStream("media/ws/b.png", Stream.make(bytesOf(10)), { maxBytes: 99 })))
          .toBe(true)
        expect(yield* diesStoreDown(storage.verify("media/ws/a.png", "0".repeat(64)))).toBe(true)
        expect(yield* diesStoreDown(Effect.scoped(storage.readableFile("media/ws/a.png")))).toBe(true)
        expect(yield* diesStoreDown(storage.delete("media/ws/a.png"))).toBe(true)
        expect(yield* diesStoreDown(storage.listWrittenBefore("media", Date.now()))).toBe(true)
        expect(Date.now() - started).toBeLessThan(20_000)

        const response = yield* causeToEnvelope("https://x/errors", Cause.die(new StoreUnavailable({ reason: "down" })))
        expect(response.status).toBe(503)
        expect(response.headers["retry-after"]).toBe("5")

        yield* Effect.promise(() => s3.start())
        expect(yield* storage.stat("media/ws/a.png")).toEqual(Option.some({ byteSize: 1000 }))
        expect(yield* storage.stat("media/ws/b.png")).toEqual(Option.none())
      }).pipe(Effect.provide(storageLive)),
    60_000
  )

  it.live(
    "background work waits the store out and goes on: an upload started while it is down completes",
    () =>
      Effect.gen(function*() {
        const storage = yield* BlobStorage
        const bytes = bytesOf(200_000, 7)
        yield* Effect.promise(() => s3.stop())
        const stored = yield* Effect.scoped(Effect.gen(function*() {
          const temp = yield* storage.tempPath(".mp4")
          fs.writeFileSync(temp, bytes)
          const upload = yield* Effect.fork(
            storage.putFile("clips/ws/drawn.mp4", temp).pipe(waitForStore("1 minute", "500 millis"))
          )
          yield* Effect.sleep("3 seconds")
          // The drawn file is still there to upload again: nothing of it went into the store.
          expect(fs.existsSync(temp)).toBe(true)
          yield* Effect.promise(() => s3.start())
          const stored = yield* Fiber.join(upload)
          expect(fs.existsSync(temp)).toBe(false)
          return stored
        }))
        expect(stored.sha256).toBe(sha256(bytes))
        expect(sha256(yield* collect(storage.readStream("clips/ws/drawn.mp4")))).toBe(sha256(bytes))
      }).pipe(Effect.provide(storageLive)),
    60_000
  )

  it.live(
    "a multipart upload cut off (interrupted after its first part) leaves no object visible",
    () =>
      Effect.gen(function*() {
        const storage = yield* BlobStorage
        let sent = 0
        const source = chunked(bytesOf(10 * 1024 * 1024, 8), 256 * 1024).pipe(
          Stream.tap((b) => Effect.sync(() => (sent += b.length))),
          Stream.concat(Stream.never)
        )
        const fiber = yield* Effect.fork(storage.putStream("clips/ws/cut.mp4", source, { maxBytes: 1e9 }))
        while (sent < 10 * 1024 * 1024) yield* Effect.sleep("50 millis")
        yield* Effect.sleep("500 millis")
        yield* Fiber.interrupt(fiber)
        expect(yield* storage.stat("clips/ws/cut.mp4")).toEqual(Option.none())
        expect(yield* storage.listWrittenBefore("clips", Date.now() + 60_000)).not.toContain("clips/ws/cut.mp4")
      }).pipe(Effect.provide(storageLive)),
    60_000
  )

  it.live(
    "an object changed under us is 502 checksum_mismatch; one removed under us is BlobNotFound",
    () =>
      Effect.gen(function*() {
        const storage = yield* BlobStorage
        const stored = yield* storage.putStream("clips/ws/c.mp4", Stream.make(bytesOf(4000, 1)), { maxBytes: 1e6 })
        yield* requireIntact(storage, "clips/ws/c.mp4", stored.sha256, "the clip")
        const client = outsider()
        yield* Effect.promise(() =>
          client.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key: "clips/ws/c.mp4", Body: bytesOf(4000, 2) }))
        )
        const mismatch = yield* Effect.flip(requireIntact(storage, "clips/ws/c.mp4", stored.sha256, "the clip"))
        expect(mismatch._tag).toBe("ChecksumMismatch")
        yield* Effect.promise(() =>
          client.send(new DeleteObjectCommand({ Bucket: TEST_BUCKET, Key: "clips/ws/c.mp4" }))
        )
        client.destroy()
        const missing = yield* Effect.flip(requireIntact(storage, "clips/ws/c.mp4", stored.sha256, "the clip"))
        expect(missing).toEqual(new BlobNotFound({ key: "clips/ws/c.mp4" }))
      }).pipe(Effect.provide(storageLive)),
    60_000
  )
})
