import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { nameTakenOnUnique, transactionOrDie } from "../sql/Unique.js"
import { ChannelConfig, ChannelRecord, ChannelRow } from "./ChannelRecord.js"

const columns = "c.id, c.workspace_id, c.name, c.surface, c.ratio, c.locale, c.brand_id, c.enabled, c.approval, " +
  "c.deliver_by_email, c.deliver_by_webhook, c.posting, c.syndicates, c.syndication_token, c.create_request_id, " +
  "c.created_at, c.updated_at, c.deleted_at"
const withBrand = `${columns}, b.name AS brand_name, b.enabled AS brand_enabled`

const ById = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String })
const Write = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String, config: ChannelConfig })

/**
 * Channel rows; every method is scoped to one workspace, so another workspace's channel answers like a missing one.
 * Reads go straight here; writes come from the channel's entity (and brand deletion moving channels).
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const findLive = SqlSchema.findOne({
    Request: ById,
    Result: ChannelRow,
    execute: ({ id, workspaceId }) =>
      sql`SELECT ${sql.unsafe(withBrand)} FROM channels c JOIN brands b ON b.id = c.brand_id
          WHERE c.id = ${id} AND c.workspace_id = ${workspaceId} AND c.deleted_at IS NULL`
  })
  const find = SqlSchema.findOne({
    Request: ById,
    Result: ChannelRecord,
    execute: ({ id, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM channels c WHERE c.id = ${id} AND c.workspace_id = ${workspaceId}`
  })
  const listLive = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: ChannelRow,
    execute: (workspaceId) =>
      sql`SELECT ${sql.unsafe(withBrand)} FROM channels c JOIN brands b ON b.id = c.brand_id
          WHERE c.workspace_id = ${workspaceId} AND c.deleted_at IS NULL ORDER BY c.created_at, c.id`
  })
  const insert = SqlSchema.findOne({
    Request: ChannelRecord.insert,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (row) => sql`INSERT INTO channels ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING id`
  })
  const update = SqlSchema.findOne({
    Request: Write,
    Result: Schema.Struct({ id: Schema.String }),
    execute: ({ config: c, id, workspaceId }) =>
      sql`UPDATE channels SET name = ${c.name}, surface = ${c.surface}, ratio = ${c.ratio}, locale = ${c.locale},
            brand_id = ${c.brandId}, enabled = ${c.enabled}, approval = ${c.approval},
            deliver_by_email = ${c.deliverByEmail}, deliver_by_webhook = ${c.deliverByWebhook},
            posting = ${JSON.stringify(c.posting)}::jsonb, syndicates = ${c.syndicates},
            syndication_token = ${c.syndicationToken}, updated_at = now()
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL RETURNING id`
  })
  const markDeleted = SqlSchema.findOne({
    Request: ById,
    Result: Schema.Struct({ id: Schema.String }),
    execute: ({ id, workspaceId }) =>
      // The deprecated credential fields go with the channel (SPEC Channels: "credentials forgotten"), in one statement.
      sql`WITH deleted AS (
            UPDATE channels SET deleted_at = now(), updated_at = now(), name = name || ' (removed)'
            WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL RETURNING id
          ), forgotten AS (
            DELETE FROM channel_credentials WHERE channel_id IN (SELECT id FROM deleted)
          )
          SELECT id FROM deleted`
  })
  const lockBrand = SqlSchema.findOne({
    Request: ById,
    Result: Schema.Struct({ id: Schema.String }),
    execute: ({ id, workspaceId }) =>
      sql`SELECT id FROM brands WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL FOR SHARE`
  })
  const liveNames = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Schema.Struct({ name: Schema.String }),
    execute: (workspaceId) => sql`SELECT name FROM channels WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })
  const nameHolder = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, name: Schema.String, exceptId: Schema.String }),
    Result: Schema.Struct({ id: Schema.String }),
    execute: ({ exceptId, name, workspaceId }) =>
      sql`SELECT id FROM channels WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL
          AND name = ${name} AND id <> ${exceptId} LIMIT 1`
  })

  return {
    /** The workspace's live channel with the brand it wears. */
    findLive: (workspaceId: WorkspaceId, id: string) => Effect.orDie(findLive({ workspaceId, id })),
    /** The workspace's channel, deleted or not. */
    find: (workspaceId: WorkspaceId, id: string) => Effect.orDie(find({ workspaceId, id })),
    listLive: (workspaceId: WorkspaceId) => Effect.orDie(listLive(workspaceId)),
    liveNames: (workspaceId: WorkspaceId) =>
      liveNames(workspaceId).pipe(Effect.map((rows) => rows.map((r) => r.name)), Effect.orDie),
    nameTaken: (workspaceId: WorkspaceId, name: string, exceptId: string | null) =>
      nameHolder({ workspaceId, name, exceptId: exceptId ?? "" }).pipe(Effect.map(Option.isSome), Effect.orDie),
    /** None when the id exists or the name is taken. */
    insert: (workspaceId: WorkspaceId, id: string, config: ChannelConfig, createRequestId: string) =>
      Effect.orDie(insert(ChannelRecord.insert.make({ id, workspaceId, ...config, createRequestId }))),
    /** Rewrites a live channel; None when there is none. */
    write: (workspaceId: WorkspaceId, id: string, config: ChannelConfig) =>
      nameTakenOnUnique(update({ workspaceId, id, config })),
    /**
     * Holds a live brand of the workspace until the transaction ends: a brand deletion (which locks the brand row
     * before counting its channels) then waits for the channel write, or the write finds the brand gone.
     */
    lockBrand: (workspaceId: WorkspaceId, id: string) => Effect.orDie(lockBrand({ workspaceId, id })),
    withTransaction: transactionOrDie(sql),
    /** None when there was no live channel. */
    markDeleted: (workspaceId: WorkspaceId, id: string) => Effect.orDie(markDeleted({ workspaceId, id }))
  }
})

export class ChannelRepo extends Context.Tag("clipwright/channels/ChannelRepo")<
  ChannelRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(ChannelRepo, make)
}
