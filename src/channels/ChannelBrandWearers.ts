import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { BrandWearers } from "../brands/BrandWearers.js"
import { WorkspaceId } from "../domain/Principal.js"

/**
 * Channels answering brands' `BrandWearers` port. Moving channels is the one write to channel rows outside their
 * entities: it belongs to the brand deletion's transaction, and changes only the brand worn.
 */
export const ChannelBrandWearers = Layer.effect(
  BrandWearers,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const wearing = SqlSchema.findAll({
      Request: WorkspaceId,
      Result: Schema.Struct({ brandId: Schema.String, id: Schema.String, name: Schema.String }),
      execute: (workspaceId) =>
        sql`SELECT brand_id, id, name FROM channels
            WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL ORDER BY created_at, id`
    })
    const move = SqlSchema.findAll({
      Request: Schema.Struct({ workspaceId: WorkspaceId, from: Schema.String, to: Schema.String }),
      Result: Schema.Struct({ id: Schema.String }),
      execute: ({ from, to, workspaceId }) =>
        sql`UPDATE channels SET brand_id = ${to}, updated_at = now()
            WHERE workspace_id = ${workspaceId} AND brand_id = ${from} AND deleted_at IS NULL RETURNING id`
    })
    return BrandWearers.of({
      wearing: (workspaceId) =>
        wearing(workspaceId).pipe(
          Effect.map((rows) => {
            const byBrand = new Map<string, Array<{ id: string; name: string }>>()
            for (const { brandId, id, name } of rows) {
              const list = byBrand.get(brandId) ?? []
              list.push({ id, name })
              byBrand.set(brandId, list)
            }
            return byBrand
          }),
          Effect.orDie,
          Effect.withSpan("BrandWearers.wearing")
        ),
      move: (workspaceId, from, to) =>
        move({ workspaceId, from, to }).pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie,
          Effect.withSpan("BrandWearers.move")
        )
    })
  })
)
