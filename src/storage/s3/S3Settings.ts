import { S3Client } from "@aws-sdk/client-s3"
import { Config, ConfigError, Effect, Option } from "effect"

/** Where the object store is: CONTRACT.md's `STORAGE_URL`, `S3_ENDPOINT`, `S3_REGION` and `S3_FORCE_PATH_STYLE`. */
export interface S3Location {
  readonly bucket: string
  /** Folder inside the bucket every key goes under: empty, or ending in `/`. */
  readonly prefix: string
  readonly endpoint: string | undefined
  readonly region: string
  readonly forcePathStyle: boolean
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const PREFIX_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$/

/** `s3://<bucket>[/<prefix>]`, or a message naming what is wrong with it. */
export const parseStorageUrl = (url: string): { bucket: string; prefix: string } | string => {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url.trim())
  if (match === null) return "must look like s3://<bucket>[/<prefix>]"
  const bucket = match[1]!
  if (!BUCKET.test(bucket)) return `"${bucket}" is not a bucket name (3-63 lower-case letters, digits, dots, hyphens)`
  const segments = (match[2] ?? "").split("/").filter((s) => s !== "")
  const bad = segments.find((s) => !PREFIX_SEGMENT.test(s))
  if (bad !== undefined) return `the prefix segment "${bad}" is not a plain folder name`
  return { bucket, prefix: segments.length === 0 ? "" : `${segments.join("/")}/` }
}

/** Connections to the store per node at most (downloads, uploads' parts, checks). */
const MAX_CONNECTIONS = 256

const nonEmpty = (name: string) => Config.option(Config.string(name)).pipe(Effect.map(Option.filter((s) => s !== "")))

/** The object store named by the environment; none when `STORAGE_URL` is unset (files stay under `DATA_DIR`). */
export const s3LocationFromEnv = Effect.gen(function*() {
  const url = yield* nonEmpty("STORAGE_URL")
  if (Option.isNone(url)) return Option.none<S3Location>()
  const parsed = parseStorageUrl(url.value)
  if (typeof parsed === "string") return yield* Effect.fail(ConfigError.InvalidData(["STORAGE_URL"], parsed))
  const endpoint = Option.getOrUndefined(yield* nonEmpty("S3_ENDPOINT"))
  const region = Option.getOrElse(yield* nonEmpty("S3_REGION"), () => "us-east-1")
  const forcePathStyle = yield* Config.boolean("S3_FORCE_PATH_STYLE").pipe(Config.withDefault(endpoint !== undefined))
  return Option.some<S3Location>({ ...parsed, endpoint, region, forcePathStyle })
})

/**
 * A client that S3-compatible stores (MinIO, Garage, Ceph, R2, s3rver) accept: checksums only where the API requires
 * them (newer SDKs send flexible checksums such stores reject). Credentials come from the SDK's standard chain
 * (`AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` and the rest). A store that cannot be connected to within seconds
 * counts as down, so requests answer 503 rather than hang. The idle limit on a connection is long: a download's
 * socket to the store sits idle while a video player, its buffer full, stops reading for minutes.
 */
export const makeS3Client = (location: S3Location, credentials?: { accessKeyId: string; secretAccessKey: string }) =>
  new S3Client({
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 2,
    // Every download in progress holds a connection to the store; the SDK's default of 50 would queue the 51st.
    requestHandler: {
      connectionTimeout: 3_000,
      requestTimeout: 300_000,
      httpAgent: { keepAlive: true, maxSockets: MAX_CONNECTIONS },
      httpsAgent: { keepAlive: true, maxSockets: MAX_CONNECTIONS }
    },
    ...(location.endpoint === undefined ? {} : { endpoint: location.endpoint }),
    ...(credentials === undefined ? {} : { credentials })
  })
