/**
 * s3rver as real S3 stores behave: an object appears whole or not at all. Out of the box s3rver writes a PUT straight
 * into the object's file, so two PUTs of one key interleave and a PUT cut off midway leaves half an object that
 * GET serves; AWS S3, MinIO, Garage, Ceph and R2 never show either. Without this the contract tests would test
 * s3rver's shortcut (the concurrent writers' test failed on it now and then), not our adapter. Imported for its
 * effect by the test harness and the benchmark's store process, before s3rver starts.
 */
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { Transform } from "node:stream"
import { pipeline } from "node:stream/promises"

interface StoredObject {
  readonly bucket: string
  readonly key: string
  readonly content: Buffer | NodeJS.ReadableStream
  readonly metadata: Record<string, string>
}

interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>
}

const require = createRequire(import.meta.url)
const store: { prototype: FilesystemStore } = require("s3rver/lib/stores/filesystem.js")

/** The last step of each key's writes: the object's file and its metadata change together, one writer at a time. */
const landing = new Map<string, Promise<void>>()
let incomingCount = 0

store.prototype.putObject = async function(this: FilesystemStore, object: StoredObject) {
  const objectPath = this.getResourcePath(object.bucket, object.key, "object")
  await fs.promises.mkdir(path.dirname(objectPath), { recursive: true })
  // Not ending in s3rver's object suffix, so listings never see it.
  const incoming = `${objectPath}.incoming-${process.pid}-${incomingCount++}`
  const md5 = crypto.createHash("md5")
  let size = 0
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      md5.update(chunk)
      size += chunk.length
      done(null, chunk)
    }
  })
  try {
    const source = Buffer.isBuffer(object.content) ? [object.content] : object.content
    await pipeline(source, counted, fs.createWriteStream(incoming))
  } catch (error) {
    await fs.promises.rm(incoming, { force: true })
    throw error
  }
  const digest = md5.digest("hex")
  const before = landing.get(objectPath) ?? Promise.resolve()
  const landed = before.then(async () => {
    await fs.promises.rename(incoming, objectPath)
    await this.putMetadata(object.bucket, object.key, object.metadata, digest)
  })
  const settled = landed.catch(() => undefined)
  landing.set(objectPath, settled)
  await landed.finally(() => {
    if (landing.get(objectPath) === settled) landing.delete(objectPath)
  })
  return { size, md5: digest }
}
