import { type SqlClient, SqlError } from "@effect/sql"
import { Effect, Schema } from "effect"

/** Another live row of the same kind in the workspace holds the name (the unique index said so). */
export class NameTaken extends Schema.TaggedError<NameTaken>()("NameTaken", {}) {}

/** The failure carries PostgreSQL's unique_violation (SQLSTATE 23505). */
export const isUniqueViolation = (e: unknown) =>
  typeof e === "object" && e !== null && "cause" in e && typeof e.cause === "object" && e.cause !== null &&
  "code" in e.cause && e.cause.code === "23505"

/** A unique violation becomes `NameTaken`; every other failure is a defect. */
export const nameTakenOnUnique = <A>(effect: Effect.Effect<A, SqlError.SqlError | unknown>) =>
  Effect.catchAll(
    effect,
    (e) => e instanceof SqlError.SqlError && isUniqueViolation(e) ? Effect.fail(new NameTaken()) : Effect.die(e)
  )

/** Runs `effect` in one transaction; the database failing is a defect, the effect's own errors stay typed. */
export const transactionOrDie = (sql: SqlClient.SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  sql.withTransaction(effect).pipe(
    Effect.catchIf((e): e is SqlError.SqlError => e instanceof SqlError.SqlError, Effect.die)
  )
