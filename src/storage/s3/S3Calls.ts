import { GetObjectCommand, HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3"
import { Effect, identity, Option } from "effect"
import type { Readable } from "node:stream"
import { isValidKey } from "../BlobKey.js"
import type { ByteRange } from "../BlobStorage.js"
import { BlobNotFound, InvalidBlobKey } from "../Errors.js"
import { isBadRange, isMissing, storeDefect } from "./S3Faults.js"

/** The bucket's calls the adapter is made of, each mapping the store's faults the same way. */
export const makeS3Calls = (client: S3Client, Bucket: string, prefix: string) => {
  const objectKey = (key: string) =>
    isValidKey(key) ? Effect.succeed(`${prefix}${key}`) : Effect.die(new InvalidBlobKey({ key }))

  /** One store call; a store that is down dies `StoreUnavailable`, a missing object is `onMissing`'s. */
  const call = <A, B = never, E = never>(
    run: (signal: AbortSignal) => Promise<A>,
    onMissing?: () => Effect.Effect<B, E>
  ): Effect.Effect<A | B, E> =>
    Effect.tryPromise({ try: run, catch: identity }).pipe(
      Effect.catchAll((e) => onMissing !== undefined && isMissing(e) ? onMissing() : Effect.die(storeDefect(e)))
    )

  const head = (key: string) =>
    Effect.flatMap(objectKey(key), (Key) =>
      call(
        (abortSignal) => client.send(new HeadObjectCommand({ Bucket, Key }), { abortSignal }),
        () => Effect.succeed(undefined)
      ))

  /** The object's body from its first byte (or the range), with its ETag; opened before the stream starts. */
  const get = (key: string, range?: ByteRange) =>
    Effect.flatMap(objectKey(key), (Key) =>
      Effect.tryPromise({
        try: (abortSignal) =>
          client.send(
            new GetObjectCommand({ Bucket, Key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
            { abortSignal }
          ),
        catch: identity
      }).pipe(
        Effect.map((out) => Option.some({ body: out.Body as Readable, etag: out.ETag ?? "" })),
        Effect.catchAll((e) =>
          isMissing(e)
            ? Effect.fail(new BlobNotFound({ key }))
            : range !== undefined && isBadRange(e)
            ? Effect.succeed(Option.none())
            : Effect.die(storeDefect(e))
        )
      ))

  return { objectKey, call, head, get }
}

/** Versions remembered per key, past `max` keys the longest remembered forgotten first. */
export const makeVersionMemo = (max = 10_000) => {
  const versions = new Map<string, string>()
  return {
    get: (key: string) => versions.get(key),
    delete: (key: string) => versions.delete(key),
    remember: (key: string, version: string) => {
      versions.delete(key)
      if (versions.size >= max) versions.delete(versions.keys().next().value!)
      versions.set(key, version)
    }
  }
}
