import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { PLAIN_DDL } from "../../bench/support/PlainIngestSchema.js"

// The yardstick copies the ingest tables rather than importing clipwright; this holds the copy to the migration.
const migration = readFileSync(new URL("../../migrations/0011_ingest.ts", import.meta.url), "utf8")
const oneLine = (statement: string) => statement.replace(/\s+/g, " ").replace(/\( /g, "(").replace(/ \)/g, ")").trim()
const migrated = [...migration.matchAll(/sql`([^`]*)`/g)].map((m) => oneLine(m[1]!))
const copied = PLAIN_DDL.map(oneLine)
const BARE = ["CREATE TABLE workspaces (id text PRIMARY KEY)", "CREATE TABLE channels (id text PRIMARY KEY)"]

describe("the plain-ingest yardstick's tables (bench/support/PlainIngestSchema.ts)", () => {
  it("are statements of migrations/0011_ingest.ts, word for word, but for the bare parent tables", () => {
    expect(copied.filter((statement) => BARE.includes(statement))).toEqual(BARE)
    for (const statement of copied.filter((s) => !BARE.includes(s))) expect(migrated).toContain(statement)
  })

  it("leave out nothing the migration makes of ingest_events and jobs", () => {
    const ofIngest = migrated.filter((s) =>
      /^(CREATE TABLE|ALTER TABLE) (ingest_events|jobs)\b|^CREATE INDEX \w+ ON (ingest_events|jobs)\b/.test(s)
    )
    expect(ofIngest.length).toBe(8)
    for (const statement of ofIngest) expect(copied).toContain(statement)
  })
})
