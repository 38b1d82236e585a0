/**
 * bench:storage's yardstick on the S3 side: the same operations made with the AWS SDK alone (the client settings
 * and part size the adapter uses, nothing of ours around them) on the same store. What the adapter costs over it is
 * ours; what this costs over the local folder is the store's (and the SDK's).
 */
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3"
import { Upload } from "@aws-sdk/lib-storage"
import * as fs from "node:fs"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { PART_BYTES, QUEUE } from "../../src/storage/s3/S3BlobStorage.js"
import { makeS3Client } from "../../src/storage/s3/S3Settings.js"
import { S3RVER_CREDENTIALS, TEST_BUCKET } from "../../test/storage/S3Harness.js"

export interface SdkAloneWork {
  readonly upload: () => Promise<unknown>
  readonly rangeRead: (start: number, end: number) => Promise<unknown>
  readonly wholeRead: () => Promise<unknown>
  readonly clipWrite: (file: string) => Promise<unknown>
  readonly close: () => void
}

const drain = (body: unknown) =>
  pipeline(body as Readable, async function*(source: AsyncIterable<Buffer>) {
    for await (const _ of source) void _
  })

export const sdkAlone = (endpoint: string, chunk: Uint8Array, count: number): SdkAloneWork => {
  const client = makeS3Client(
    { bucket: TEST_BUCKET, prefix: "", endpoint, region: "us-east-1", forcePathStyle: true },
    S3RVER_CREDENTIALS
  )
  const Bucket = TEST_BUCKET
  const Key = "sdk/upload.bin"
  const get = async (Range?: string) =>
    drain((await client.send(new GetObjectCommand({ Bucket, Key, ...(Range ? { Range } : {}) }))).Body)
  return {
    upload: () => {
      const Body = Readable.from((function*() {
        for (let i = 0; i < count; i++) yield chunk
      })())
      return new Upload({ client, params: { Bucket, Key, Body }, partSize: PART_BYTES, queueSize: QUEUE }).done()
    },
    rangeRead: (start, end) => get(`bytes=${start}-${end}`),
    wholeRead: () => get(),
    clipWrite: (file) =>
      client.send(
        new PutObjectCommand({
          Bucket,
          Key: "sdk/clip.mp4",
          Body: fs.createReadStream(file),
          ContentLength: fs.statSync(file).size
        })
      ),
    close: () => client.destroy()
  }
}
