import { Data, Schema } from "effect"

/** A write went past its byte limit; nothing was left behind. Routes answer it as `payload_too_large`. */
export class BlobTooLarge extends Schema.TaggedError<BlobTooLarge>()("BlobTooLarge", {
  key: Schema.String,
  maxBytes: Schema.Number
}) {
  override get message() {
    return `More than ${this.maxBytes} bytes for ${this.key}.`
  }
}

/** No blob under the key (never written, deleted, or removed for room). */
export class BlobNotFound extends Schema.TaggedError<BlobNotFound>()("BlobNotFound", {
  key: Schema.String
}) {
  override get message() {
    return `No blob ${this.key}.`
  }
}

/** The bytes under the key no longer hash to what was recorded when they were stored (changed or damaged on disk). */
export class BlobCorrupt extends Schema.TaggedError<BlobCorrupt>()("BlobCorrupt", {
  key: Schema.String,
  expected: Schema.String,
  actual: Schema.String
}) {
  override get message() {
    return `Blob ${this.key} hashes to ${this.actual}, not the recorded ${this.expected}.`
  }
}

/** A key that is not a plain relative path. Keys are made by the service, so this is a defect, never a typed error. */
export class InvalidBlobKey extends Data.TaggedError("InvalidBlobKey")<{ readonly key: string }> {
  override get message() {
    return `Invalid blob key ${JSON.stringify(this.key)}.`
  }
}

/**
 * The object store did not answer or said it cannot serve now. A defect like any I/O fault, but one the service waits
 * out: HTTP requests answer 503 `upstream_unavailable` with a retry hint, renders and hand-overs wait and go on.
 */
export class StoreUnavailable extends Data.TaggedError("StoreUnavailable")<{ readonly reason: string }> {
  override get message() {
    return `The object store is unavailable: ${this.reason}`
  }
}

export const isStoreUnavailable = (u: unknown): u is StoreUnavailable =>
  typeof u === "object" && u !== null && (u as { _tag?: unknown })._tag === "StoreUnavailable"
