import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { groupCommit } from "../../src/sql/GroupCommit.js"
import { query } from "../support/Database.js"
import { useDatabase } from "../support/Rig.js"

const db = useDatabase("group_commit")

beforeAll(async () => {
  await query(db.url, "CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL CHECK (length(body) <= 10))")
})

interface Note {
  readonly id: number
  readonly body: string
}

/** A group-committed insert of notes on the real PostgreSQL; `groups` records the size of every statement. */
const withNotes = <A>(
  use: (insert: (note: Note) => Effect.Effect<number, unknown>, groups: Array<number>) => Effect.Effect<A, unknown>
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const groups: Array<number> = []
    const insert = yield* groupCommit({
      maxGroup: 100,
      many: (notes: ReadonlyArray<Note>) => {
        // A statement can fail before it is even built, as a bug would make it.
        if (notes.some((n) => n.body === "throws")) throw new Error("could not build the statement")
        return Effect.suspend(() => {
          groups.push(notes.length)
          return sql<{ id: number }>`INSERT INTO notes (id, body)
            SELECT * FROM unnest(${notes.map((n) => n.id)}::int[], ${notes.map((n) => n.body)}::text[]) RETURNING id`
        }).pipe(Effect.map((rows) => rows.map((row) => row.id)))
      }
    })
    return yield* use(insert, groups)
  }).pipe(Effect.scoped, Effect.provide(PgClient.layer({ url: Redacted.make(db.url) })), Effect.runPromise)

const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i)

describe("group commit", () => {
  it("writes notes sent together in fewer statements than notes, and answers each with its own row", async () => {
    const { answers, groups } = await withNotes((insert, groups) =>
      Effect.map(
        Effect.forEach(ids(1, 40), (id) => insert({ id, body: `note ${id}` }), { concurrency: "unbounded" }),
        (answers) => ({ answers, groups })
      )
    )
    expect(answers).toEqual(ids(1, 40))
    expect(groups.reduce((a, b) => a + b, 0)).toBe(40)
    expect(groups.length).toBeLessThan(40)
    const stored = await query<{ n: number }>(db.url, "SELECT count(*)::int AS n FROM notes WHERE id BETWEEN 1 AND 40")
    expect(stored[0]!.n).toBe(40)
  })

  it("fails only the bad note of a group; the others are stored", async () => {
    const exits = await withNotes((insert) =>
      Effect.forEach(
        ids(101, 12),
        (id) => Effect.exit(insert({ id, body: id === 107 ? "far too long for a note" : `note ${id}` })),
        { concurrency: "unbounded" }
      )
    )
    expect(exits.map(Exit.isSuccess)).toEqual(ids(101, 12).map((id) => id !== 107))
    expect(String(Exit.isFailure(exits[6]!) ? exits[6].cause : "")).toMatch(/check constraint|SqlError/)
    const stored = await query<{ id: number }>(db.url, "SELECT id FROM notes WHERE id BETWEEN 101 AND 112 ORDER BY id")
    expect(stored.map((row) => row.id)).toEqual(ids(101, 12).filter((id) => id !== 107))
  })

  it("fails the callers of a statement that throws while being built, and keeps writing the next ones", async () => {
    const { broken, after } = await withNotes((insert) =>
      Effect.gen(function*() {
        const broken = yield* Effect.exit(insert({ id: 301, body: "throws" }))
        const after = yield* Effect.forEach(ids(302, 3), (id) => insert({ id, body: `note ${id}` }), {
          concurrency: "unbounded"
        })
        return { broken, after }
      })
    )
    expect(Exit.isFailure(broken)).toBe(true)
    expect(after).toEqual(ids(302, 3))
  })

  it("writes a note sent alone in a statement of its own, without waiting for company", async () => {
    const { answers, groups } = await withNotes((insert, groups) =>
      Effect.gen(function*() {
        const first = yield* insert({ id: 201, body: "alone" })
        const second = yield* insert({ id: 202, body: "alone too" })
        return { answers: [first, second], groups }
      })
    )
    expect(answers).toEqual([201, 202])
    expect(groups).toEqual([1, 1])
  })
})
