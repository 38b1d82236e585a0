import { afterAll, beforeAll } from "vitest"
import { blobContract } from "./BlobContract.js"
import { type S3Harness, startS3 } from "./S3Harness.js"
import { s3StorageLayer } from "./S3Layer.js"

let s3: S3Harness
beforeAll(async () => {
  s3 = await startS3("contract")
})
afterAll(() => s3.close())

// Under a prefix, as an operator sharing one bucket sets `STORAGE_URL=s3://bucket/clipwright`.
blobContract("S3-compatible bucket (s3rver on loopback)", s3StorageLayer(() => s3, "clipwright/"))
