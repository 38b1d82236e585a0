import { ConfigProvider, Effect, Exit, Option } from "effect"
import * as path from "node:path"
import { makeLocalBlobStorage } from "../LocalBlobStorage.js"
import { migrateBlobs } from "../Migrate.js"
import { checkBucket } from "../s3/BucketCheck.js"
import { makeS3BlobStorage } from "../s3/S3BlobStorage.js"
import { makeS3Client, s3LocationFromEnv } from "../s3/S3Settings.js"

/** What the command touches of the outside world (the CLI's own, so tests pass theirs). */
export interface CommandIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
  readonly cwd: string
}

export const STORAGE_MIGRATE_HELP = `Usage: clipwright admin storage migrate

Copies every stored file under \${DATA_DIR:-./data}/blobs into the object store named by STORAGE_URL
(with S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), each file's
sha256 checked on the way in and read back. Safe to run twice: files the store already holds unchanged are
skipped. Runs on this machine (no node needed); the folder is left as it was. Prints a JSON report; exit
status 1 when a file could not be copied.
`

/** The standard variables from the CLI's environment; without both, the SDK's own chain (profiles, roles). */
const credentialsOf = (env: CommandIo["env"]) => {
  const accessKeyId = env["AWS_ACCESS_KEY_ID"]
  const secretAccessKey = env["AWS_SECRET_ACCESS_KEY"]
  return accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined
}

/**
 * `clipwright admin storage migrate`: the folder store of DATA_DIR into the bucket of STORAGE_URL. It works on files,
 * not through a node, so the launcher (bin/clipwright.js) runs it directly rather than the HTTP-only CLI.
 */
export const runStorageMigrate = async (args: ReadonlyArray<string>, io: CommandIo): Promise<number> => {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(STORAGE_MIGRATE_HELP)
    return 0
  }
  if (args.length > 0) {
    io.stderr(
      `clipwright: "admin storage migrate" takes no arguments, got "${args.join(" ")}"\n\n${STORAGE_MIGRATE_HELP}`
    )
    return 2
  }
  const env = Object.entries(io.env).flatMap(([k, v]) => (v === undefined ? [] : [[k, v] as const]))
  const root = path.resolve(io.cwd, io.env["DATA_DIR"] || "./data", "blobs")
  const program = Effect.gen(function*() {
    const location = yield* s3LocationFromEnv
    if (Option.isNone(location)) return yield* Effect.fail("STORAGE_URL is not set: name the bucket to copy into")
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => makeS3Client(location.value, credentialsOf(io.env))),
      (c) => Effect.sync(() => c.destroy())
    )
    yield* checkBucket(client, location.value.bucket)
    const source = yield* makeLocalBlobStorage(root)
    const target = yield* makeS3BlobStorage({
      client,
      bucket: location.value.bucket,
      prefix: location.value.prefix,
      tempDir: path.join(root, ".tmp")
    })
    return yield* migrateBlobs(root, source, target, (done, total) => {
      if (done % 100 === 0 || done === total) io.stderr(`copied or checked ${done} of ${total} files\n`)
    })
  }).pipe(Effect.scoped, Effect.withConfigProvider(ConfigProvider.fromMap(new Map(env))))
  const exit = await Effect.runPromiseExit(program)
  if (Exit.isFailure(exit)) {
    const failure = exit.cause._tag === "Fail" ? String(exit.cause.error) : String(exit.cause)
    io.stderr(`clipwright: storage migrate: ${failure.split("\n")[0]}\n`)
    return 1
  }
  io.stdout(`${JSON.stringify({ from: root, ...exit.value }, null, 2)}\n`)
  return exit.value.failed.length === 0 ? 0 : 1
}
