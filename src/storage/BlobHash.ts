import { Effect, Stream } from "effect"
import * as crypto from "node:crypto"
import type { BlobStorageService } from "./BlobStorage.js"

/** Size and lower-case hex SHA-256 of the bytes stored under `key`, read through the port (any adapter). */
export const hashBlob = (storage: BlobStorageService, key: string) =>
  Effect.suspend(() => {
    const hash = crypto.createHash("sha256")
    let byteSize = 0
    return storage.readStream(key).pipe(
      Stream.runForEach((bytes) =>
        Effect.sync(() => {
          byteSize += bytes.length
          hash.update(bytes)
        })
      ),
      Effect.map(() => ({ byteSize, sha256: hash.digest("hex") }))
    )
  })
