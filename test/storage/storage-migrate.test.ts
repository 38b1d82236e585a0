import { PutObjectCommand } from "@aws-sdk/client-s3"
import { Effect, Stream } from "effect"
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { makeS3Client } from "../../src/storage/s3/S3Settings.js"
import { runStorageMigrate } from "../../src/storage/setup/MigrateCommand.js"
import { bytesOf, collect, sha256, tempRoot } from "./helpers.js"
import { type S3Harness, S3RVER_CREDENTIALS, startS3, TEST_BUCKET } from "./S3Harness.js"
import { s3StorageOn } from "./S3Layer.js"

let s3: S3Harness
beforeAll(async () => {
  s3 = await startS3("migrate")
})
afterAll(() => s3.close())

const files: Record<string, Uint8Array> = {
  "media/ws1/logo.png": bytesOf(5000, 1),
  "clips/ws1/01.mp4": bytesOf(9 * 1024 * 1024 + 3, 2),
  "exports/ws2/a/b.zip": bytesOf(10, 3),
  "reference/tpl/x/1x1-abc.mp4": new Uint8Array()
}

const cli = async (dataDir: string) => {
  const out: Array<string> = []
  const err: Array<string> = []
  const code = await runStorageMigrate([], {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env: { DATA_DIR: dataDir, ...s3.env("moved") },
    cwd: process.cwd()
  })
  return { code, report: out.length > 0 ? JSON.parse(out.join("")) : undefined, err: err.join("") }
}

const inBucket = (key: string) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(s3StorageOn(s3, "moved/"), (s) => collect(s.readStream(key)))))

describe("clipwright admin storage migrate", () => {
  it(
    "copies every file with its checksum checked; a second run copies nothing; a changed copy is copied again",
    async () => {
      const dataDir = tempRoot("migrate")
      const local = LocalBlobStorage.layerAt(path.join(dataDir, "blobs"))
      await Effect.runPromise(Effect.provide(
        Effect.flatMap(BlobStorage, (s) =>
          Effect.forEach(
            Object.entries(files),
            ([key, bytes]) => s.putStream(key, Stream.make(bytes), { maxBytes: 1e9 })
          )),
        local
      ))
      // A crashed writer's temporary file is not a stored file.
      fs.writeFileSync(path.join(dataDir, "blobs", ".tmp", "half"), "x")

      const first = await cli(dataDir)
      expect(first.code, first.err).toBe(0)
      expect(first.report).toMatchObject({ copied: 4, alreadyThere: 0, failed: [] })
      expect(first.report.bytesCopied).toBe(
        Object.values(files).reduce((n, b) => n + b.length, 0)
      )
      for (const [key, bytes] of Object.entries(files)) expect(sha256(await inBucket(key))).toBe(sha256(bytes))

      const second = await cli(dataDir)
      expect(second.report).toMatchObject({ copied: 0, alreadyThere: 4, bytesCopied: 0, failed: [] })

      const client = makeS3Client(
        { bucket: TEST_BUCKET, prefix: "", endpoint: s3.endpoint, region: "us-east-1", forcePathStyle: true },
        S3RVER_CREDENTIALS
      )
      await client.send(
        new PutObjectCommand({ Bucket: TEST_BUCKET, Key: "moved/media/ws1/logo.png", Body: bytesOf(5000, 9) })
      )
      client.destroy()
      const third = await cli(dataDir)
      expect(third.report).toMatchObject({ copied: 1, alreadyThere: 3, bytesCopied: 5000, failed: [] })
      expect(sha256(await inBucket("media/ws1/logo.png"))).toBe(sha256(files["media/ws1/logo.png"]!))
    },
    60_000
  )

  it("without STORAGE_URL it says what is missing and exits 1", async () => {
    const err: Array<string> = []
    const code = await runStorageMigrate([], {
      stdout: () => undefined,
      stderr: (t) => err.push(t),
      env: { DATA_DIR: tempRoot("migrate-none") },
      cwd: process.cwd()
    })
    expect(code).toBe(1)
    expect(err.join("")).toContain("STORAGE_URL is not set")
  })

  it("a bucket that does not exist is named, and nothing is copied", async () => {
    const err: Array<string> = []
    const code = await runStorageMigrate([], {
      stdout: () => undefined,
      stderr: (t) => err.push(t),
      env: { DATA_DIR: tempRoot("migrate-nobucket"), ...s3.env(), STORAGE_URL: "s3://no-such-bucket" },
      cwd: process.cwd()
    })
    expect(code).toBe(1)
    expect(err.join("")).toContain("the bucket no-such-bucket does not exist")
  })

  it("is what `npx clipwright admin storage migrate` runs", async () => {
    const bin = path.resolve(import.meta.dirname, "../../bin/clipwright.js")
    const { stdout } = await promisify(execFile)(process.execPath, [bin, "admin", "storage", "migrate", "--help"])
    expect(stdout).toContain("Usage: clipwright admin storage migrate")
  }, 30_000)
})
