import { HeadBucketCommand, type S3Client } from "@aws-sdk/client-s3"
import { ConfigError, Effect } from "effect"
import { isStoreDown } from "./S3Faults.js"

/**
 * At start: the bucket exists and the credentials may use it, or the node stops with a line that says so (every
 * upload would fail otherwise). A store that is down only delays that: the node starts, and requests answer 503
 * until the store is back.
 */
export const checkBucket = (client: S3Client, bucket: string) =>
  Effect.tryPromise({ try: () => client.send(new HeadBucketCommand({ Bucket: bucket })), catch: (e) => e }).pipe(
    Effect.asVoid,
    Effect.catchAll((e) => {
      if (isStoreDown(e)) {
        return Effect.logWarning("The object store does not answer at start; requests that need files answer 503")
          .pipe(Effect.annotateLogs({ bucket }))
      }
      const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
      const why = status === 404
        ? "does not exist (create it first)"
        : status === 403 || status === 401
        ? "may not be used with these credentials (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY)"
        : `cannot be reached: ${e instanceof Error ? e.message : String(e)}`
      return Effect.fail(ConfigError.InvalidData(["STORAGE_URL"], `the bucket ${bucket} ${why}`))
    })
  )
