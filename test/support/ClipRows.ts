import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { WorkspaceId } from "../../src/domain/Principal.js"
import { newUlid } from "../../src/domain/Ulid.js"

/** Rows written straight by SQL for the service-level storage tests: a workspace, a clip of a render, its state. */
export const newWorkspace = (storageMb = 1024) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = WorkspaceId.make(newUlid())
    yield* sql`INSERT INTO workspaces (id, name, storage_mb) VALUES (${id}, ${"Test " + id}, ${storageMb})`
    return id
  }).pipe(Effect.orDie)

/** A render job and one clip of it, as the renders area stores them. */
export const clip = (workspaceId: WorkspaceId, byteSize: number, kept: boolean) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [jobId, clipId] = [newUlid(), newUlid()]
    yield* sql`INSERT INTO render_jobs (id, workspace_id, origin, template_id, template_name, template_variant,
                 template_version, outputs_requested, package)
               VALUES (${jobId}, ${workspaceId}, 'test', 't', 'T', 'v', '1', 1, '{}'::jsonb)`
    yield* sql`INSERT INTO clips (id, workspace_id, render_job_id, ratio, locale, width, height, duration_ms, byte_size,
                 sha256, blob_key, kept)
               VALUES (${clipId}, ${workspaceId}, ${jobId}, '9x16', 'en', 1080, 1920, 1000, ${byteSize}, 'x',
                 ${`clips/${workspaceId}/${clipId}.mp4`}, ${kept})`
    return clipId
  }).pipe(Effect.orDie)

export const clipState = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`SELECT stored, kept FROM clips WHERE id = ${id}`
    return rows[0]
  }).pipe(Effect.orDie)
