import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { makeS3BlobStorage } from "../../src/storage/s3/S3BlobStorage.js"
import { makeS3Client } from "../../src/storage/s3/S3Settings.js"
import { type S3Harness, S3RVER_CREDENTIALS, TEST_BUCKET } from "./S3Harness.js"

/** The S3 adapter against the harness's bucket, keys under `prefix` (empty, or ending in `/`). */
export const s3StorageOn = (s3: Pick<S3Harness, "endpoint">, prefix: string) =>
  Effect.gen(function*() {
    const location = { bucket: TEST_BUCKET, prefix, endpoint: s3.endpoint, region: "us-east-1", forcePathStyle: true }
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => makeS3Client(location, S3RVER_CREDENTIALS)),
      (c) => Effect.sync(() => c.destroy())
    )
    const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-s3tmp-"))
    return yield* makeS3BlobStorage({ client, bucket: TEST_BUCKET, prefix, tempDir })
  })

export const s3StorageLayer = (s3: () => S3Harness, prefix: string) =>
  Layer.scoped(BlobStorage, Effect.suspend(() => s3StorageOn(s3(), prefix)))
