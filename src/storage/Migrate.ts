import { Effect, Option } from "effect"
import * as fsp from "node:fs/promises"
import * as path from "node:path"
import { hashBlob } from "./BlobHash.js"
import { isValidKey } from "./BlobKey.js"
import type { BlobStorageService } from "./BlobStorage.js"

export interface MigrationReport {
  /** Files written to the target this run, their checksums checked on the way in and read back. */
  readonly copied: number
  /** Files the target already held with the same bytes (a second run copies nothing). */
  readonly alreadyThere: number
  readonly bytesCopied: number
  /** Keys that could not be copied whole, with why; the run answers failure when there is any. */
  readonly failed: ReadonlyArray<{ readonly key: string; readonly reason: string }>
}

/** Every key of the folder store: the files under its top-level folders (its `.tmp` is not a folder of keys). */
const keysOf = (root: string, source: BlobStorageService) =>
  Effect.gen(function*() {
    const entries = yield* Effect.promise(() => fsp.readdir(root, { withFileTypes: true }).catch(() => []))
    const folders = entries.filter((e) => e.isDirectory() && isValidKey(e.name)).map((e) => e.name).sort()
    const keys = yield* Effect.forEach(folders, (folder) => source.listWrittenBefore(folder, Number.POSITIVE_INFINITY))
    return keys.flat().sort()
  })

type Outcome =
  | { readonly _tag: "Copied"; readonly bytes: number }
  | { readonly _tag: "AlreadyThere" }
  | { readonly _tag: "Failed"; readonly reason: string }

/**
 * Copies `key` unless the target holds the same bytes: the source is hashed, streamed up (hashed again on the way)
 * and read back from the target; only a match counts as copied.
 */
const copyOne = (source: BlobStorageService, target: BlobStorageService, key: string) =>
  Effect.gen(function*() {
    const original = yield* hashBlob(source, key)
    const there = yield* target.stat(key)
    if (Option.isSome(there) && there.value.byteSize === original.byteSize) {
      const same = yield* Effect.either(target.verify(key, original.sha256))
      if (same._tag === "Right") return { _tag: "AlreadyThere" } satisfies Outcome
    }
    const written = yield* target.putStream(key, source.readStream(key), { maxBytes: Number.MAX_SAFE_INTEGER })
    if (written.sha256 !== original.sha256) {
      return { _tag: "Failed", reason: "the file changed while it was copied; run again" } satisfies Outcome
    }
    yield* target.verify(key, original.sha256)
    return { _tag: "Copied", bytes: written.byteSize } satisfies Outcome
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.succeed<Outcome>({ _tag: "Failed", reason: String(cause).split("\n")[0] ?? "failed" })
    )
  )

/**
 * Moves an existing `DATA_DIR` blob folder into an object store (`clipwright admin storage migrate`): every file
 * copied with its checksum checked, safe to run twice (and to run again after a failure: what is there is kept).
 * The folder is left as it was; the operator removes it once the nodes run on the bucket.
 */
export const migrateBlobs = (
  root: string,
  source: BlobStorageService,
  target: BlobStorageService,
  onProgress: (done: number, total: number) => void = () => undefined
) =>
  Effect.gen(function*() {
    const keys = yield* keysOf(path.resolve(root), source)
    let done = 0
    const outcomes = yield* Effect.forEach(keys, (key) =>
      copyOne(source, target, key).pipe(
        Effect.map((outcome) => ({ key, outcome })),
        Effect.tap(() => Effect.sync(() => onProgress(++done, keys.length)))
      ), { concurrency: 4 })
    const report: MigrationReport = {
      copied: outcomes.filter((o) => o.outcome._tag === "Copied").length,
      alreadyThere: outcomes.filter((o) => o.outcome._tag === "AlreadyThere").length,
      bytesCopied: outcomes.reduce((sum, o) => sum + (o.outcome._tag === "Copied" ? o.outcome.bytes : 0), 0),
      failed: outcomes.flatMap((o) => o.outcome._tag === "Failed" ? [{ key: o.key, reason: o.outcome.reason }] : [])
    }
    return report
  })
