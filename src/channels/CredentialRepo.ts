import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { CredentialRecord, CredentialRow } from "./CredentialRecord.js"

const ById = Schema.Struct({ workspaceId: WorkspaceId, channelId: Schema.String })
const columns = "k.workspace_id, k.channel_id, k.key, k.label, k.value, k.secret, k.position, k.updated_at, " +
  "c.name AS channel_name, c.surface"

/** Credential fields of live channels; every method is scoped to one workspace. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const listAll = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: CredentialRow,
    execute: (workspaceId) =>
      sql`SELECT ${sql.unsafe(columns)} FROM channel_credentials k JOIN channels c ON c.id = k.channel_id
          WHERE k.workspace_id = ${workspaceId} AND c.workspace_id = ${workspaceId} AND c.deleted_at IS NULL
          ORDER BY c.created_at, c.id, k.position`
  })
  const listOne = SqlSchema.findAll({
    Request: ById,
    Result: CredentialRow,
    execute: ({ channelId, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM channel_credentials k JOIN channels c ON c.id = k.channel_id
          WHERE k.workspace_id = ${workspaceId} AND k.channel_id = ${channelId} ORDER BY k.position`
  })
  // Locks the live channel row so a concurrent delete (which forgets the fields) runs before or after, whole.
  const lockChannel = SqlSchema.findOne({
    Request: ById,
    Result: Schema.Struct({ id: Schema.String }),
    execute: ({ channelId, workspaceId }) =>
      sql`SELECT id FROM channels WHERE id = ${channelId} AND workspace_id = ${workspaceId}
          AND deleted_at IS NULL FOR UPDATE`
  })
  const forget = SqlSchema.findAll({
    Request: ById,
    Result: Schema.Struct({ key: Schema.String }),
    execute: ({ channelId, workspaceId }) =>
      sql`DELETE FROM channel_credentials WHERE workspace_id = ${workspaceId} AND channel_id = ${channelId}
          RETURNING key`
  })
  const insert = SqlSchema.void({
    Request: Schema.Array(CredentialRecord.insert),
    execute: (rows) => sql`INSERT INTO channel_credentials ${sql.insert(rows)}`
  })

  return {
    listAll: (workspaceId: WorkspaceId) => Effect.orDie(listAll(workspaceId)),
    list: (workspaceId: WorkspaceId, channelId: string) => Effect.orDie(listOne({ workspaceId, channelId })),
    lockChannel: (workspaceId: WorkspaceId, channelId: string) => Effect.orDie(lockChannel({ workspaceId, channelId })),
    /** How many fields were forgotten. */
    forget: (workspaceId: WorkspaceId, channelId: string) =>
      forget({ workspaceId, channelId }).pipe(Effect.map((rows) => rows.length), Effect.orDie),
    insert: (rows: ReadonlyArray<typeof CredentialRecord.insert.Type>) =>
      rows.length === 0 ? Effect.void : Effect.orDie(insert(rows)),
    withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))
  }
})

export class CredentialRepo extends Context.Tag("clipwright/channels/CredentialRepo")<
  CredentialRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(CredentialRepo, make)
}
