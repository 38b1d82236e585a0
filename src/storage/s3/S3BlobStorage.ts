import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3"
import { Upload } from "@aws-sdk/lib-storage"
import { NodeStream } from "@effect/platform-node"
import { Clock, Effect, identity, Option, Stream } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as fsp from "node:fs/promises"
import { Transform } from "node:stream"
import { pipeline } from "node:stream/promises"
import { isValidKey } from "../BlobKey.js"
import type { BlobStorageService, ByteRange } from "../BlobStorage.js"
import { BlobCorrupt, BlobNotFound, BlobTooLarge } from "../Errors.js"
import { removeQuietly } from "../Files.js"
import { makeS3Calls, makeVersionMemo } from "./S3Calls.js"
import { storeDefect } from "./S3Faults.js"
import { streamUpload } from "./S3Upload.js"
import { makeTempFiles } from "./TempFiles.js"

export interface S3StoreOptions {
  readonly client: S3Client
  readonly bucket: string
  /** Folder inside the bucket: empty, or ending in `/`. */
  readonly prefix: string
  /** A local folder for files on their way in or out (renders' output, copies for ffmpeg). */
  readonly tempDir: string
}

/** Parts of a multipart upload: at most `PART_BYTES × (QUEUE + 1)` of an upload is in memory at once, whatever its size. */
export const PART_BYTES = 8 * 1024 * 1024
export const QUEUE = 2
/** The most one PUT may carry (S3's limit is 5 GiB); a larger finished file goes up in parts. */
const SINGLE_PUT_BYTES = 4 * 1024 * 1024 * 1024

/**
 * Reads of a finished file go up in 1 MiB pieces, not the default 64 KiB: a sixteenth of the hash updates, stream hops
 * and socket writes per byte (a 50 MB clip's PUT took about half the CPU of one read at the default).
 */
const FILE_CHUNK_BYTES = 1024 * 1024

/** A file's bytes as a stream that hashes what passes through it; `digest` once the stream has been read to its end. */
const hashingReader = (file: string) => {
  const hash = crypto.createHash("sha256")
  const source = fs.createReadStream(file, { highWaterMark: FILE_CHUNK_BYTES })
  const body = new Transform({
    highWaterMark: FILE_CHUNK_BYTES,
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk)
      callback(null, chunk)
    }
  })
  source.on("error", (e) => body.destroy(e))
  body.on("close", () => source.destroy())
  return { body: source.pipe(body), digest: () => hash.digest("hex") }
}

const validRange = (r: ByteRange) =>
  Number.isSafeInteger(r.start) && Number.isSafeInteger(r.end) && r.start >= 0 && r.end >= r.start

/**
 * The blob store as an S3-compatible bucket. An object appears whole or not at all: a single PUT, or a multipart
 * upload that is only visible once completed (aborted when cut off), so the last writer of a key wins whole.
 */
export const makeS3BlobStorage = (options: S3StoreOptions): Effect.Effect<BlobStorageService> =>
  Effect.gen(function*() {
    const { bucket: Bucket, client, prefix } = options
    const temps = yield* makeTempFiles(options.tempDir, yield* Clock.currentTimeMillis)
    const { call, get, head, objectKey } = makeS3Calls(client, Bucket, prefix)

    // Object versions (ETag, size, sha256) this node has hashed: a video fetched range by range is read through once.
    const verified = makeVersionMemo()

    const putStream = Effect.fn("BlobStorage.putStream")(function*<E, R>(
      key: string,
      stream: Stream.Stream<Uint8Array, E, R>,
      limits: { readonly maxBytes: number }
    ) {
      yield* Effect.annotateCurrentSpan("blob.key", key)
      const Key = yield* objectKey(key)
      const hash = crypto.createHash("sha256")
      let byteSize = 0
      const counted = stream.pipe(
        Stream.mapChunksEffect((chunk) => {
          for (const part of chunk) byteSize += part.length
          if (byteSize > limits.maxBytes) return Effect.fail(new BlobTooLarge({ key, maxBytes: limits.maxBytes }))
          for (const part of chunk) hash.update(part)
          return Effect.succeed(chunk)
        })
      )
      const etag = yield* streamUpload(client, call, { Bucket, Key }, counted, { partBytes: PART_BYTES, queue: QUEUE })
      const sha256 = hash.digest("hex")
      if (etag !== undefined) verified.remember(key, `${etag}:${byteSize}:${sha256}`)
      return { key, byteSize, sha256 }
    })

    /**
     * A finished file of known size goes up as one PUT streamed from disk and hashed on the way (one read of the file,
     * one write on the store's side: a multipart upload makes the store stitch its parts together, copying the whole
     * object again). A file past what one PUT takes goes up in parts. Either way the object appears whole or not at all.
     */
    const putFile = Effect.fn("BlobStorage.putFile")(function*(key: string, sourcePath: string) {
      yield* Effect.annotateCurrentSpan("blob.key", key)
      const Key = yield* objectKey(key)
      const { size } = yield* Effect.promise(() => fsp.stat(sourcePath))
      const single = size <= SINGLE_PUT_BYTES
      const { done, sha256 } = yield* Effect.acquireUseRelease(
        Effect.sync(() => hashingReader(sourcePath)),
        ({ body, digest }) =>
          call((abortSignal) => {
            const params = { Bucket, Key, Body: body, ContentLength: size }
            if (single) return client.send(new PutObjectCommand(params), { abortSignal })
            const upload = new Upload({ client, params, partSize: PART_BYTES, queueSize: QUEUE })
            abortSignal.addEventListener("abort", () => void upload.abort())
            return upload.done()
          }).pipe(Effect.map((done) => ({ done, sha256: digest() }))),
        ({ body }) => Effect.sync(() => body.destroy())
      )
      if (done.ETag !== undefined) verified.remember(key, `${done.ETag}:${size}:${sha256}`)
      yield* Effect.promise(() => removeQuietly(sourcePath))
      return { key, byteSize: size, sha256 }
    })

    const stat = Effect.fn("BlobStorage.stat")(function*(key: string) {
      const found = yield* head(key)
      return found === undefined ? Option.none() : Option.some({ byteSize: found.ContentLength ?? 0 })
    })

    const remove = Effect.fn("BlobStorage.delete")(function*(key: string) {
      const Key = yield* objectKey(key)
      yield* call((abortSignal) => client.send(new DeleteObjectCommand({ Bucket, Key }), { abortSignal }))
    })

    const readStream = (key: string, range?: ByteRange) =>
      Stream.unwrapScoped(Effect.gen(function*() {
        if (range !== undefined && !validRange(range)) return yield* Effect.dieMessage(`Invalid byte range for ${key}.`)
        const found = yield* get(key, range)
        if (Option.isNone(found)) return Stream.empty
        const { body } = found.value
        yield* Effect.addFinalizer(() => Effect.sync(() => body.destroy()))
        return NodeStream.fromReadable<unknown, Uint8Array>(() => body, identity).pipe(
          Stream.catchAll((e) => Stream.die(storeDefect(e)))
        )
      })).pipe(Stream.withSpan("BlobStorage.readStream", { attributes: { "blob.key": key } }))

    const verify = Effect.fn("BlobStorage.verify")(function*(key: string, expected: string) {
      yield* Effect.annotateCurrentSpan("blob.key", key)
      const sha256 = expected.toLowerCase()
      const found = yield* head(key)
      if (found === undefined) return yield* new BlobNotFound({ key })
      if (verified.get(key) === `${found.ETag}:${found.ContentLength}:${sha256}`) return
      const actual = yield* Effect.scoped(Effect.gen(function*() {
        const got = yield* get(key)
        if (Option.isNone(got)) return yield* new BlobNotFound({ key })
        const { body, etag } = got.value
        const hash = crypto.createHash("sha256")
        let byteSize = 0
        yield* Effect.tryPromise({
          try: () =>
            pipeline(body, async function*(source: AsyncIterable<Buffer>) {
              for await (const chunk of source) {
                byteSize += chunk.length
                hash.update(chunk)
              }
            }),
          catch: identity
        }).pipe(Effect.catchAll((e) => Effect.die(storeDefect(e))))
        return { etag, byteSize, sha256: hash.digest("hex") }
      }))
      if (actual.sha256 !== sha256) {
        verified.delete(key)
        return yield* new BlobCorrupt({ key, expected, actual: actual.sha256 })
      }
      verified.remember(key, `${actual.etag}:${actual.byteSize}:${sha256}`)
    })

    const listWrittenBefore = Effect.fn("BlobStorage.listWrittenBefore")(function*(folder: string, before: number) {
      const Prefix = `${yield* objectKey(folder)}/`
      const keys: Array<string> = []
      let ContinuationToken: string | undefined
      do {
        const page = yield* call((abortSignal) =>
          client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }), { abortSignal })
        )
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(prefix.length)
          const written = object.LastModified?.getTime() ?? Number.POSITIVE_INFINITY
          if (key !== undefined && isValidKey(key) && written < before) keys.push(key)
        }
        ContinuationToken = page.IsTruncated === true ? page.NextContinuationToken : undefined
      } while (ContinuationToken !== undefined)
      return keys
    })

    /** A scoped local copy: ffmpeg and the drawer read files, and the copy goes when they are done. */
    const readableFile = (key: string) =>
      Effect.gen(function*() {
        const copy = yield* temps.tempPath(temps.suffixOf(key))
        yield* Effect.scoped(Effect.gen(function*() {
          const got = yield* get(key)
          if (Option.isNone(got)) return yield* new BlobNotFound({ key })
          const { body } = got.value
          yield* Effect.tryPromise({ try: () => pipeline(body, fs.createWriteStream(copy)), catch: identity }).pipe(
            Effect.catchAll((e) => Effect.die(storeDefect(e)))
          )
        }))
        return copy
      })

    return {
      putFile,
      putStream,
      stat,
      delete: remove,
      readStream,
      verify,
      listWrittenBefore,
      readableFile,
      tempPath: temps.tempPath
    } satisfies BlobStorageService
  })
