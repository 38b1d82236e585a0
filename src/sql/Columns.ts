import { Model } from "@effect/sql"
import { Schema } from "effect"

/**
 * A `jsonb` column: PostgreSQL hands it back parsed, but a parameter must be sent as JSON text (node-postgres would
 * send a JavaScript array as a PostgreSQL array literal).
 */
export const JsonbColumn = <S extends Schema.Schema.Any>(schema: S) => {
  const text = Schema.parseJson(schema)
  return Model.Field({
    select: schema,
    insert: text,
    update: text,
    json: schema,
    jsonCreate: schema,
    jsonUpdate: schema
  })
}

/** A timestamp the database stamps (`DEFAULT now()`): read, never written by the service. */
export const StampedByDatabase = Model.Generated(Schema.DateFromSelf)
