import { Effect, Layer, Option } from "effect"
import * as path from "node:path"
import { AppConfig } from "../../Config.js"
import { BlobStorage } from "../BlobStorage.js"
import { makeLocalBlobStorage } from "../LocalBlobStorage.js"
import { checkBucket } from "../s3/BucketCheck.js"
import { makeS3BlobStorage } from "../s3/S3BlobStorage.js"
import { makeS3Client, s3LocationFromEnv } from "../s3/S3Settings.js"

/**
 * The blob store chosen at start: an S3-compatible bucket when `STORAGE_URL` is set, else the folder
 * `DATA_DIR/blobs`. With a bucket, `DATA_DIR` keeps only what is the node's own (temporary files, the embedded
 * database, the email outbox), so nodes on different machines need no shared volume.
 */
export const StorageLive = Layer.scoped(
  BlobStorage,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const location = yield* s3LocationFromEnv
    if (Option.isNone(location)) return yield* makeLocalBlobStorage(path.join(config.dataDir, "blobs"))
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => makeS3Client(location.value)),
      (c) => Effect.sync(() => c.destroy())
    )
    yield* checkBucket(client, location.value.bucket)
    yield* Effect.logInfo("Files are kept in an object store").pipe(
      Effect.annotateLogs({ bucket: location.value.bucket, prefix: location.value.prefix })
    )
    return yield* makeS3BlobStorage({
      client,
      bucket: location.value.bucket,
      prefix: location.value.prefix,
      tempDir: path.join(config.dataDir, "tmp", "blobs")
    })
  })
)
