import { SqlClient, SqlError, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { BrandStyle } from "./BrandStyle.js"
import type { BrandChannel } from "./Brand.js"

export const BrandRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  name: Schema.String,
  enabled: Schema.Boolean,
  style: BrandStyle,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  deletedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type BrandRow = typeof BrandRow.Type

export interface BrandInsert {
  readonly id: string
  readonly workspaceId: string
  readonly name: string
  readonly enabled: boolean
  readonly style: BrandStyle
}

export interface BrandWrite {
  readonly name: string
  readonly enabled: boolean
  readonly style: BrandStyle
}

/** Another live brand of the workspace holds the name (the unique index said so). */
export class NameTaken extends Schema.TaggedError<NameTaken>()("NameTaken", {}) {}

const isUniqueViolation = (e: SqlError.SqlError) =>
  typeof e.cause === "object" && e.cause !== null && "code" in e.cause && e.cause.code === "23505"

const columns = "id, workspace_id, name, enabled, style, created_at, updated_at, deleted_at"

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const byId = SqlSchema.findOne({
    Request: Schema.String,
    Result: BrandRow,
    execute: (id) => sql`SELECT ${sql.unsafe(columns)} FROM brands WHERE id = ${id}`
  })
  const lockById = SqlSchema.findOne({
    Request: Schema.String,
    Result: BrandRow,
    execute: (id) => sql`SELECT ${sql.unsafe(columns)} FROM brands WHERE id = ${id} FOR UPDATE`
  })
  const listLive = SqlSchema.findAll({
    Request: Schema.String,
    Result: BrandRow,
    execute: (workspaceId) =>
      sql`SELECT ${sql.unsafe(columns)} FROM brands
          WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL ORDER BY created_at, id`
  })
  const liveNames = SqlSchema.findAll({
    Request: Schema.String,
    Result: Schema.Struct({ name: Schema.String }),
    execute: (workspaceId) => sql`SELECT name FROM brands WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })
  const insert = SqlSchema.findAll({
    Request: Schema.Any,
    Result: BrandRow,
    execute: (row: BrandInsert) =>
      sql`INSERT INTO brands ${sql.insert({ ...row, style: JSON.stringify(row.style) })}
          ON CONFLICT DO NOTHING RETURNING ${sql.unsafe(columns)}`
  })
  const write = SqlSchema.findOne({
    Request: Schema.Any,
    Result: BrandRow,
    execute: ({ id, w, workspaceId }: { id: string; workspaceId: string; w: BrandWrite }) =>
      sql`UPDATE brands SET name = ${w.name}, enabled = ${w.enabled}, style = ${JSON.stringify(w.style)}::jsonb,
            updated_at = now()
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL
          RETURNING ${sql.unsafe(columns)}`
  })

  return {
    /** Any brand with that id, deleted or not, in any workspace: callers check tenancy. */
    findById: (id: string) => Effect.orDie(byId(id)),
    /** As findById, holding the row until the transaction ends (slot writes lock it too). */
    lockById: (id: string) => Effect.orDie(lockById(id)),
    listLive: (workspaceId: string) => Effect.orDie(listLive(workspaceId)),
    liveNames: (workspaceId: string) =>
      liveNames(workspaceId).pipe(Effect.map((rows) => rows.map((r) => r.name)), Effect.orDie),
    /** Another live brand of the workspace is called that (case-blind). */
    nameTaken: (workspaceId: string, name: string, exceptId: string | null) =>
      sql`SELECT 1 FROM brands WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL
          AND lower(name) = lower(${name}) AND id <> ${exceptId ?? ""} LIMIT 1`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    /** Nothing inserted (empty) when the id exists or the name is taken. */
    insert: (row: BrandInsert) => Effect.orDie(insert(row)),
    /** Writes a live brand of the workspace: none when there is no such brand. */
    write: (id: string, workspaceId: string, w: BrandWrite): Effect.Effect<Option.Option<BrandRow>, NameTaken> =>
      write({ id, workspaceId, w }).pipe(
        Effect.catchAll((e) =>
          e instanceof SqlError.SqlError && isUniqueViolation(e) ? Effect.fail(new NameTaken()) : Effect.die(e)
        )
      ),
    markDeleted: (id: string) =>
      Effect.orDie(sql`UPDATE brands SET deleted_at = now(), updated_at = now()
        WHERE id = ${id} AND deleted_at IS NULL`),
    /**
     * The channels wearing each brand of the workspace, by brand id. There are no channels yet: the channels
     * issue answers this from its table, and every caller (list, delete's in-use count) follows.
     */
    channelsWearing: (_workspaceId: string): Effect.Effect<ReadonlyMap<string, ReadonlyArray<BrandChannel>>> =>
      Effect.succeed(new Map()),
    /** Moves every channel wearing `from` to `to`; the count moved. Filled by the channels issue. */
    moveChannels: (_workspaceId: string, _from: string, _to: string): Effect.Effect<number> => Effect.succeed(0),
    withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(effect).pipe(
        Effect.catchIf((e): e is SqlError.SqlError => e instanceof SqlError.SqlError, Effect.die)
      )
  }
})

export class BrandRepo extends Context.Tag("clipwright/sql/BrandRepo")<
  BrandRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(BrandRepo, make)
}
