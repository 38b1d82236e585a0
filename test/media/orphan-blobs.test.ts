import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Layer, Stream } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { AppConfig } from "../../src/Config.js"
import { WorkspaceId } from "../../src/domain/Principal.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { OrphanBlobs } from "../../src/media/OrphanBlobs.js"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { serviceTestLayer } from "../support/ServiceLayer.js"

const TestLayer = OrphanBlobs.layer.pipe(
  Layer.provideMerge(LocalBlobStorage.layer),
  Layer.provideMerge(serviceTestLayer("orphan_blobs"))
)

const DAY_MS = 24 * 60 * 60 * 1000

/** Writes `key` and dates its last write `ageMs` back, as a file left that long ago. */
const written = (key: string, ageMs: number) =>
  Effect.gen(function*() {
    const blobs = yield* BlobStorage
    yield* blobs.putStream(key, Stream.make(new TextEncoder().encode(key)), { maxBytes: 1024 })
    const file = yield* Effect.scoped(blobs.readableFile(key))
    const at = new Date(Date.now() - ageMs)
    fs.utimesSync(file, at, at)
    return file
  })

describe("orphan blobs", () => {
  it.layer(TestLayer, { timeout: 60_000 })((it) => {
    // On the live clock: the sweep compares the files' write times with the time now.
    it.effect("removes files older than a day that no live row names, and nothing else", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const orphans = yield* OrphanBlobs
        const { dataDir } = yield* AppConfig
        const ws = WorkspaceId.make(newUlid())
        yield* sql`INSERT INTO workspaces (id, name) VALUES (${ws}, ${"Orphans " + ws})`
        const row = (id: string, key: string, deleted: boolean) =>
          sql`INSERT INTO media_files (id, workspace_id, name, mime_type, kind, byte_size, sha256, blob_key, uploaded_by,
                deleted_at)
              VALUES (${id}, ${ws}, ${id + ".png"}, 'image/png', 'Image', 10, ${"0".repeat(64)}, ${key}, 'apikey:x',
                ${deleted ? new Date() : null})`

        const kept = `media/${ws}/library/${newUlid()}`
        const keptFile = yield* written(kept, 3 * DAY_MS)
        yield* row(kept.split("/")[3]!, kept, false)
        const deletedRow = `media/${ws}/library/${newUlid()}`
        const deletedFile = yield* written(deletedRow, 3 * DAY_MS)
        yield* row(deletedRow.split("/")[3]!, deletedRow, true)
        const orphanMedia = yield* written(`media/${ws}/brand/${newUlid()}`, 2 * DAY_MS)
        const orphanClip = yield* written(`clips/${ws}/${newUlid()}.mp4`, 2 * DAY_MS)
        // Still being written (its row comes seconds later): young files stay whatever the rows say.
        const young = yield* written(`media/${ws}/library/${newUlid()}`, 60_000)
        // Not a file of one row: reference clips are a cache of their own.
        const reference = yield* written("reference/tpl_x/abc/9x16-0123.mp4", 5 * DAY_MS)

        const removed = yield* orphans.sweep()
        assert.strictEqual(removed.length, 3)
        for (const file of [orphanMedia, orphanClip, deletedFile]) assert.isFalse(fs.existsSync(file), file)
        for (const file of [keptFile, young, reference]) assert.isTrue(fs.existsSync(file), file)
        assert.isTrue(fs.existsSync(path.join(dataDir, "blobs", ".tmp")))
        // Swept for files older than a second, the young file is an orphan too.
        assert.deepStrictEqual(yield* orphans.sweep("1 second"), [young.slice(path.join(dataDir, "blobs").length + 1)])
        assert.isTrue(fs.existsSync(keptFile))
      }).pipe(Effect.withClock(Clock.make())))

    it.effect("one node claims the sweep at a time", () =>
      Effect.gen(function*() {
        const orphans = yield* OrphanBlobs
        const sql = yield* SqlClient.SqlClient
        yield* sql`DELETE FROM sweep_claims`
        const claims = yield* Effect.all([orphans.claimSweep(), orphans.claimSweep(), orphans.claimSweep()], {
          concurrency: "unbounded"
        })
        assert.deepStrictEqual(claims.filter(Boolean).length, 1)
        assert.isFalse(yield* orphans.claimSweep())
        yield* sql`UPDATE sweep_claims SET swept_at = now() - interval '2 hours'`
        assert.isTrue(yield* orphans.claimSweep())
      }))
  })
})
