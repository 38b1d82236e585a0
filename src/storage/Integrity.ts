import { Effect } from "effect"
import { ChecksumMismatch } from "../domain/Errors.js"
import type { BlobStorageService } from "./BlobStorage.js"

/**
 * Goes on only if the bytes under `key` are still the ones recorded (`sha256`); otherwise 502 `checksum_mismatch`, and
 * the wrong bytes are never sent. The operator learns which file in the log; the caller learns only what it asked for.
 */
export const requireIntact = (storage: BlobStorageService, key: string, sha256: string, what: string) =>
  storage.verify(key, sha256).pipe(
    Effect.catchTag("BlobCorrupt", (corrupt) =>
      Effect.logError("Stored file does not match its recorded sha256").pipe(
        Effect.annotateLogs({ key: corrupt.key, expected: corrupt.expected, actual: corrupt.actual }),
        Effect.zipRight(Effect.fail(
          new ChecksumMismatch({
            message: `The stored file of ${what} does not match its recorded sha256, so it is not sent. The operator ` +
              "has it in the log; quote the requestId."
          })
        ))
      ))
  )
