import { NodeStream } from "@effect/platform-node"
import { Chunk, Clock, Effect, Exit, identity, Layer, Option, Stream } from "effect"
import * as crypto from "node:crypto"
import type { Stats } from "node:fs"
import * as fsp from "node:fs/promises"
import * as path from "node:path"
import { AppConfig } from "../Config.js"
import { resolveKey } from "./BlobKey.js"
import { BlobStorage, type BlobStorageService, type ByteRange } from "./BlobStorage.js"
import { BlobCorrupt, BlobNotFound, BlobTooLarge } from "./Errors.js"
import {
  filesWrittenBefore,
  hashFile,
  isCrossDevice,
  isNotFound,
  removeQuietly,
  renameInto,
  sweepOld,
  syncFile,
  writeFully
} from "./Files.js"

/** Temporary files live in the store's own folder, so the final rename never crosses file systems. */
const TMP_DIR = ".tmp"
/** A temporary file this old belongs to a writer that crashed (uploads and renders take minutes, not a day). */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000
const TEMP_SUFFIX = /^(\.[A-Za-z0-9]{1,10})?$/

/** Files that hashed as recorded, remembered per node; past this many the longest remembered is read again next time. */
const MAX_VERIFIED = 10_000

const io = <A>(run: () => Promise<A>): Effect.Effect<A> => Effect.promise(run)

/** Whatever rewrites a file in place or replaces it changes one of these. */
const versionOf = (stat: Stats, sha256: string) => `${sha256}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`

const validRange = (r: ByteRange) =>
  Number.isSafeInteger(r.start) && Number.isSafeInteger(r.end) && r.start >= 0 && r.end >= r.start

/** The local-filesystem blob store rooted at `root`. */
export const makeLocalBlobStorage = (root: string): Effect.Effect<BlobStorageService> =>
  Effect.gen(function*() {
    const tmpDir = path.join(root, TMP_DIR)
    yield* io(() => fsp.mkdir(tmpDir, { recursive: true }))
    const now = yield* Clock.currentTimeMillis
    yield* io(() => sweepOld(tmpDir, STALE_TEMP_MS, now))
    const newTemp = (suffix = "") => path.join(tmpDir, `${crypto.randomUUID()}${suffix}`)

    /** Same file system: one rename. Otherwise copy next to the target, flush, rename, and drop the source. */
    const moveInto = async (source: string, target: string) => {
      try {
        await renameInto(source, target)
      } catch (e) {
        if (!isCrossDevice(e)) throw e
        const temp = newTemp()
        try {
          await fsp.copyFile(source, temp)
          await syncFile(temp)
          await renameInto(temp, target)
        } finally {
          await removeQuietly(temp)
        }
        await removeQuietly(source)
      }
    }

    const putFile = Effect.fn("BlobStorage.putFile")(function*(key: string, sourcePath: string) {
      yield* Effect.annotateCurrentSpan("blob.key", key)
      const target = yield* resolveKey(root, key)
      const info = yield* io(() => hashFile(sourcePath))
      yield* io(() => syncFile(sourcePath))
      yield* io(() => moveInto(sourcePath, target))
      return { key, ...info }
    })

    const writeAll = <E, R>(
      handle: fsp.FileHandle,
      stream: Stream.Stream<Uint8Array, E, R>,
      key: string,
      maxBytes: number
    ) =>
      Effect.suspend(() => {
        const hash = crypto.createHash("sha256")
        let byteSize = 0
        return stream.pipe(
          Stream.runForEachChunk((chunk) => {
            const parts = Chunk.toReadonlyArray(chunk)
            for (const part of parts) byteSize += part.length
            if (byteSize > maxBytes) return Effect.fail(new BlobTooLarge({ key, maxBytes }))
            for (const part of parts) hash.update(part)
            const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts)
            return io(() => writeFully(handle, bytes))
          }),
          Effect.zipRight(io(() => handle.sync())),
          Effect.map(() => ({ byteSize, sha256: hash.digest("hex") }))
        )
      })

    const putStream = Effect.fn("BlobStorage.putStream")(function*<E, R>(
      key: string,
      stream: Stream.Stream<Uint8Array, E, R>,
      options: { readonly maxBytes: number }
    ) {
      yield* Effect.annotateCurrentSpan("blob.key", key)
      const target = yield* resolveKey(root, key)
      const temp = newTemp()
      return yield* Effect.acquireUseRelease(
        io(() => fsp.open(temp, "wx")),
        (handle) => writeAll(handle, stream, key, options.maxBytes),
        (handle) => io(() => handle.close())
      ).pipe(
        Effect.tap(() => io(() => renameInto(temp, target))),
        Effect.map((written) => ({ key, ...written })),
        // Refused, failed or interrupted: the temporary file goes (after a rename there is nothing left to remove).
        Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : io(() => removeQuietly(temp)))
      )
    })

    const stat = Effect.fn("BlobStorage.stat")(function*(key: string) {
      const file = yield* resolveKey(root, key)
      const found = yield* io(() => fsp.stat(file).catch((e) => isNotFound(e) ? undefined : Promise.reject(e)))
      return found !== undefined && found.isFile() ? Option.some({ byteSize: found.size }) : Option.none()
    })

    const verified = new Map<string, string>()
    const remember = (key: string, version: string) => {
      verified.delete(key)
      if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!)
      verified.set(key, version)
    }
    const missingAs = (key: string) => (e: unknown) =>
      isNotFound(e) ? Effect.fail(new BlobNotFound({ key })) : Effect.die(e)

    const verify = Effect.fn("BlobStorage.verify")(function*(key: string, sha256: string) {
      yield* Effect.annotateCurrentSpan("blob.key", key)
      const file = yield* resolveKey(root, key)
      const before = yield* Effect.tryPromise({ try: () => fsp.stat(file), catch: identity }).pipe(
        Effect.catchAll(missingAs(key))
      )
      const version = versionOf(before, sha256.toLowerCase())
      if (verified.get(key) === version) return
      const actual = yield* Effect.tryPromise({ try: () => hashFile(file), catch: identity }).pipe(
        Effect.catchAll(missingAs(key))
      )
      if (actual.sha256 !== sha256.toLowerCase()) {
        verified.delete(key)
        return yield* new BlobCorrupt({ key, expected: sha256, actual: actual.sha256 })
      }
      // Remembered as it was before hashing: a change while it was read is read again next time.
      remember(key, version)
    })

    const remove = Effect.fn("BlobStorage.delete")(function*(key: string) {
      const file = yield* resolveKey(root, key)
      yield* io(() => fsp.rm(file, { force: true }))
    })

    const open = (key: string, file: string) =>
      Effect.acquireRelease(
        Effect.tryPromise({ try: () => fsp.open(file, "r"), catch: identity }).pipe(
          Effect.catchAll((e) => isNotFound(e) ? Effect.fail(new BlobNotFound({ key })) : Effect.die(e))
        ),
        (handle) => io(() => handle.close())
      )

    // The file is opened when the stream starts, so a later rename onto the key does not change what is read.
    const readStream = (key: string, range?: ByteRange) =>
      Stream.unwrapScoped(Effect.gen(function*() {
        const file = yield* resolveKey(root, key)
        if (range !== undefined && !validRange(range)) return yield* Effect.dieMessage(`Invalid byte range for ${key}.`)
        const handle = yield* open(key, file)
        const bounds = range === undefined ? {} : { start: range.start, end: range.end }
        return NodeStream.fromReadable(() => handle.createReadStream({ autoClose: false, ...bounds }), identity).pipe(
          Stream.orDie
        )
      })).pipe(Stream.withSpan("BlobStorage.readStream", { attributes: { "blob.key": key } }))

    const listWrittenBefore = Effect.fn("BlobStorage.listWrittenBefore")(function*(prefix: string, before: number) {
      const folder = yield* resolveKey(root, prefix)
      return yield* io(() => filesWrittenBefore(root, folder, before))
    })

    // The stored file itself: a later rename onto the key leaves an open reader its old bytes.
    const readableFile = (key: string) =>
      Effect.flatMap(resolveKey(root, key), (file) =>
        Effect.tryPromise({
          try: () => fsp.access(file),
          catch: identity
        }).pipe(
          Effect.catchAll(missingAs(key)),
          Effect.as(file)
        ))

    const tempPath = (suffix = "") =>
      TEMP_SUFFIX.test(suffix)
        ? Effect.acquireRelease(Effect.sync(() => newTemp(suffix)), (file) => io(() => removeQuietly(file)))
        : Effect.dieMessage(`Invalid temporary file suffix ${JSON.stringify(suffix)}.`)

    return {
      putFile,
      putStream,
      stat,
      delete: remove,
      readStream,
      verify,
      listWrittenBefore,
      readableFile,
      tempPath
    } satisfies BlobStorageService
  })

/** The blob store as a folder (the default adapter of the `BlobStorage` port). */
export const LocalBlobStorage = {
  /** Files under `DATA_DIR/blobs`; nodes sharing one DATA_DIR volume see the same files. */
  layer: Layer.effect(
    BlobStorage,
    Effect.flatMap(AppConfig, (config) => makeLocalBlobStorage(path.join(config.dataDir, "blobs")))
  ),
  /** Files under `root` (tests, tools). */
  layerAt: (root: string) => Layer.effect(BlobStorage, makeLocalBlobStorage(root))
}
