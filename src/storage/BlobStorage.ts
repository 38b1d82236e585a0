import { Context } from "effect"
import type { Effect, Option, Scope, Stream } from "effect"
import type { BlobCorrupt, BlobNotFound, BlobTooLarge } from "./Errors.js"

/** What a finished write stored. */
export interface StoredBlob {
  readonly key: string
  readonly byteSize: number
  /** Lower-case hex SHA-256 of the bytes. */
  readonly sha256: string
}

export interface BlobStat {
  readonly byteSize: number
}

/** Inclusive byte offsets, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  readonly start: number
  readonly end: number
}

/**
 * The port for stored files (media uploads, brand files, rendered clips). Keys are relative paths made by the service,
 * such as `clips/<workspace>/<id>.mp4`; an absolute key or one naming `..` is a defect. A reader never sees half a
 * file under a key: writes go to a temporary name and are renamed into place, the last writer of a key wins whole.
 * I/O faults (disk full, permissions) are defects; only outcomes a caller can act on are typed. An object store that
 * does not answer dies with `StoreUnavailable`, which requests answer as 503 and background work waits out.
 * Two adapters: a folder (`LocalBlobStorage`, the default) and an S3-compatible bucket (`S3BlobStorage`).
 */
export interface BlobStorageService {
  /** Moves a finished file (ideally from `tempPath`) under `key`; `sourcePath` is gone afterwards. */
  readonly putFile: (key: string, sourcePath: string) => Effect.Effect<StoredBlob>
  /** Streams to a temporary file, hashing on the way; past `maxBytes` it stops at once and leaves nothing. */
  readonly putStream: <E, R>(
    key: string,
    stream: Stream.Stream<Uint8Array, E, R>,
    options: { readonly maxBytes: number }
  ) => Effect.Effect<StoredBlob, BlobTooLarge | E, R>
  readonly stat: (key: string) => Effect.Effect<Option.Option<BlobStat>>
  /** Removes the blob; a missing one is fine. */
  readonly delete: (key: string) => Effect.Effect<void>
  /**
   * Checks the bytes under `key` against the `sha256` recorded when they were stored. A file that passed is not read
   * again until it changes on disk (inode, size, modification or change time), so a video fetched range by range is
   * read through once, not once per range.
   */
  readonly verify: (key: string, sha256: string) => Effect.Effect<void, BlobNotFound | BlobCorrupt>
  /** The bytes, or the inclusive `range` of them (clamped at the end of the file). */
  readonly readStream: (key: string, range?: ByteRange) => Stream.Stream<Uint8Array, BlobNotFound>
  /** Keys of the files under the folder `prefix` (such as `media`) last written before `before` (epoch ms). */
  readonly listWrittenBefore: (prefix: string, before: number) => Effect.Effect<ReadonlyArray<string>>
  /**
   * A file that tools such as ffmpeg can read while the scope is open: the stored file itself for a folder, a temporary
   * copy for an object store (removed when the scope closes). Nothing else may rely on where a blob lives.
   */
  readonly readableFile: (key: string) => Effect.Effect<string, BlobNotFound, Scope.Scope>
  /**
   * A fresh local path for a producer to write before `putFile` (a rename for a folder, an upload for a bucket).
   * `suffix` such as `.mp4` lets tools infer a format. Whatever is still at the path when the scope closes is removed.
   */
  readonly tempPath: (suffix?: string) => Effect.Effect<string, never, Scope.Scope>
}

export class BlobStorage extends Context.Tag("clipwright/storage/BlobStorage")<BlobStorage, BlobStorageService>() {}
