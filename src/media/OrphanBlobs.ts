import { SqlClient, SqlSchema } from "@effect/sql"
import { Clock, Context, Duration, Effect, Layer, Schema } from "effect"
import { sweepEvery } from "../sql/Sweeps.js"
import { BlobStorage } from "../storage/BlobStorage.js"

/** A blob this old that no row refers to was left by a writer that died between writing it and storing its row. */
export const ORPHAN_AFTER = Duration.days(1)
/** Every node looks this often; the one that claims the sweep does it (see `sweep_claims`). */
const SWEEP_EVERY = Duration.hours(1)
const CLAIM = "orphan-blobs"
const BATCH = 500

/** The folders whose files each belong to one row (`media/<workspace>/…`, `clips/<workspace>/…`). */
const FOLDERS = ["media", "clips"] as const
type Folder = typeof FOLDERS[number]

const KeyRow = Schema.Struct({ blobKey: Schema.String })
const ByWorkspace = Schema.Struct({ workspaceId: Schema.String, keys: Schema.Array(Schema.String) })

const chunksOf = <A>(items: ReadonlyArray<A>, size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** Keys grouped by the workspace their second segment names. */
const byWorkspace = (keys: ReadonlyArray<string>) => {
  const groups = new Map<string, Array<string>>()
  for (const key of keys) {
    const workspaceId = key.split("/")[1] ?? ""
    groups.set(workspaceId, [...(groups.get(workspaceId) ?? []), key])
  }
  return groups
}

/**
 * Removes files of the media library and of rendered clips that no row refers to once they are older than a day:
 * what a node that died between writing a file and storing its row left behind. Uploads and renders store their row
 * seconds after the file, so a day leaves every writer room; files other than these (reference clips, `.tmp`) are
 * not looked at. Safe on several nodes sharing the volume and the database: a file is only removed when no live row
 * names it, and removing twice is harmless.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const blobs = yield* BlobStorage

  const mediaReferenced = SqlSchema.findAll({
    Request: ByWorkspace,
    Result: KeyRow,
    execute: ({ keys, workspaceId }) =>
      sql`SELECT blob_key FROM media_files
          WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL AND ${sql.in("blob_key", keys)}`
  })
  const clipsReferenced = SqlSchema.findAll({
    Request: ByWorkspace,
    Result: KeyRow,
    execute: ({ keys, workspaceId }) =>
      sql`SELECT blob_key FROM clips WHERE workspace_id = ${workspaceId} AND stored AND ${sql.in("blob_key", keys)}`
  })
  const referenced = { media: mediaReferenced, clips: clipsReferenced } satisfies Record<Folder, unknown>

  const claim = SqlSchema.findAll({
    Request: Schema.Number,
    Result: Schema.Struct({ name: Schema.String }),
    execute: (againAfterSeconds) =>
      sql`INSERT INTO sweep_claims (name, swept_at) VALUES (${CLAIM}, now())
          ON CONFLICT (name) DO UPDATE SET swept_at = now()
          WHERE sweep_claims.swept_at < now() - make_interval(secs => ${againAfterSeconds})
          RETURNING name`
  })

  const orphansIn = (folder: Folder, keys: ReadonlyArray<string>) =>
    Effect.forEach(
      [...byWorkspace(keys)],
      ([workspaceId, group]) =>
        Effect.forEach(chunksOf(group, BATCH), (batch) =>
          Effect.map(referenced[folder]({ workspaceId, keys: batch }), (rows) => {
            const named = new Set(rows.map((row) =>
              row.blobKey
            ))
            return batch.filter((key) => !named.has(key))
          }))
    ).pipe(Effect.map((groups) => groups.flat(2)))

  /** Removes the orphans written more than `olderThan` ago; answers their keys. */
  const sweep = Effect.fn("OrphanBlobs.sweep")(function*(olderThan: Duration.DurationInput = ORPHAN_AFTER) {
    const before = (yield* Clock.currentTimeMillis) - Duration.toMillis(olderThan)
    const removed: Array<string> = []
    for (const folder of FOLDERS) {
      const orphans = yield* orphansIn(folder, yield* blobs.listWrittenBefore(folder, before))
      yield* Effect.forEach(orphans, (key) => blobs.delete(key), { discard: true })
      removed.push(...orphans)
    }
    if (removed.length > 0) {
      yield* Effect.logWarning("Removed files no row refers to").pipe(
        Effect.annotateLogs({ count: removed.length, keys: removed.slice(0, 20).join(" ") })
      )
    }
    return removed
  })

  /** True when this node may sweep now: no node has in the last `againAfter`. */
  const claimSweep = (againAfter: Duration.DurationInput = SWEEP_EVERY) =>
    Effect.map(Effect.orDie(claim(Math.floor(Duration.toSeconds(againAfter) * 0.9))), (rows) => rows.length > 0)

  return { sweep: (olderThan?: Duration.DurationInput) => Effect.orDie(sweep(olderThan)), claimSweep }
})

export class OrphanBlobs extends Context.Tag("clipwright/media/OrphanBlobs")<
  OrphanBlobs,
  Effect.Effect.Success<typeof make>
>() {
  /** Needs SQL and `BlobStorage`. */
  static readonly layer = Layer.effect(OrphanBlobs, make)
}

/** The hourly sweep on every node; the claim lets one of them do it. */
export const OrphanBlobSweepLive = Layer.scopedDiscard(Effect.gen(function*() {
  const orphans = yield* OrphanBlobs
  const sweep = Effect.flatMap(orphans.claimSweep(), (claimed) => claimed ? orphans.sweep() : Effect.void)
  yield* sweepEvery("orphan blob sweep", SWEEP_EVERY, sweep)
})).pipe(Layer.provide(OrphanBlobs.layer))
