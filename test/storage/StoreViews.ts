import { GetObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll } from "vitest"
import { makeS3Client } from "../../src/storage/s3/S3Settings.js"
import type { TestNode } from "../support/Node.js"
import { blobPath } from "../support/Storage.js"
import { listFiles } from "./helpers.js"
import { type S3Harness, S3RVER_CREDENTIALS, startS3, TEST_BUCKET } from "./S3Harness.js"

/**
 * Where a node's stored files are, seen from outside the node: the end-to-end tests that run one body against both
 * adapters read the bytes a key holds through it, and nothing else of the store.
 */
export interface StoreView {
  readonly name: string
  /** The node's environment for this store; read inside hooks and tests (the store starts in a `beforeAll`). */
  readonly env: () => Record<string, string>
  /** The bytes stored under `key` for `node`, or undefined when there is no such file or object. */
  readonly bytes: (node: TestNode, key: string) => Promise<Buffer | undefined>
  /** Keys of the files under the folder `folder` (such as `media/<workspace>`), sorted. */
  readonly keys: (node: TestNode, folder: string) => Promise<Array<string>>
  /** Files under the node's own `DATA_DIR/blobs` (temporary ones left out): none when the store is a bucket. */
  readonly localFiles: (node: TestNode) => Array<string>
}

const localFiles = (node: TestNode) =>
  listFiles(path.join(node.dataDir, "blobs")).filter((f) => !f.startsWith(`.tmp${path.sep}`))

/** The default adapter: files under the node's `DATA_DIR/blobs`. */
export const localFolderView = (): StoreView => ({
  name: "local folder",
  env: () => ({}),
  bytes: async (node, key) => {
    const file = blobPath(node.dataDir, key)
    return fs.existsSync(file) ? fs.readFileSync(file) : undefined
  },
  keys: async (node, folder) =>
    listFiles(blobPath(node.dataDir, folder)).map((f) => `${folder}/${f.split(path.sep).join("/")}`),
  localFiles
})

/**
 * An S3-compatible store (s3rver on loopback) started before the file's node and closed after it; objects read with
 * the AWS SDK, as an operator would look into the bucket. Call it before `useNode`, so its hooks run first.
 */
export const s3rverView = (label: string, prefix: string): StoreView & { readonly harness: () => S3Harness } => {
  let s3: S3Harness | undefined
  const harness = () => {
    if (s3 === undefined) throw new Error("the S3 store starts in a beforeAll: read it inside a test or hook")
    return s3
  }
  beforeAll(async () => {
    s3 = await startS3(label)
  })
  afterAll(() => s3?.close())
  const withClient = async <A>(use: (client: S3Client) => Promise<A>) => {
    const location = { bucket: TEST_BUCKET, prefix: "", endpoint: harness().endpoint, region: "us-east-1" }
    const client = makeS3Client({ ...location, forcePathStyle: true }, S3RVER_CREDENTIALS)
    try {
      return await use(client)
    } finally {
      client.destroy()
    }
  }
  return {
    name: "S3-compatible bucket (s3rver on loopback)",
    env: () => harness().env(prefix),
    harness,
    bytes: (_node, key) =>
      withClient(async (client) => {
        try {
          const got = await client.send(new GetObjectCommand({ Bucket: TEST_BUCKET, Key: `${prefix}/${key}` }))
          return Buffer.from(await got.Body!.transformToByteArray())
        } catch (e) {
          if ((e as { name?: string }).name === "NoSuchKey") return undefined
          throw e
        }
      }),
    keys: (_node, folder) =>
      withClient(async (client) => {
        const listed = await client.send(
          new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: `${prefix}/${folder}/` })
        )
        return (listed.Contents ?? []).map((o) => o.Key!.slice(prefix.length + 1)).sort()
      }),
    localFiles
  }
}
