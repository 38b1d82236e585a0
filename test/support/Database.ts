import pg from "pg"

export const defaultAdminUrl = process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** Names the run's migrated template database to the test files (vitest's workers inherit the environment). */
export const TEMPLATE_ENV = "CLIPWRIGHT_TEST_TEMPLATE_DB"

export interface TestDatabase {
  readonly url: string
  readonly drop: () => Promise<void>
}

/**
 * A fresh database on the local PostgreSQL server (or the one `adminUrl` names) for one test file. `migrated` copies
 * the run's migrated template (test/support/RigTemplate.ts) when there is one on that server: what a node would make
 * of an empty one at its first start, seconds sooner. Without it (a bench, another server) the database is empty.
 */
export const createTestDatabase = async (
  label: string,
  adminUrl = defaultAdminUrl,
  options: { readonly migrated?: boolean } = {}
): Promise<TestDatabase> => {
  const name = `cw_${label.replace(/[^a-z0-9]/gi, "_").toLowerCase()}_${Date.now().toString(36)}_${
    Math.random().toString(36).slice(2, 7)
  }`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  const template = process.env[TEMPLATE_ENV]
  const copy = options.migrated === true && template !== undefined && adminUrl === defaultAdminUrl
  await admin.query(copy ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    }
  }
}

/** Runs one query against a test database (for arranging state the public API cannot reach yet, and checks). */
export const query = async <Row extends Record<string, unknown>>(
  url: string,
  text: string,
  values: Array<unknown> = []
) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<Row>(text, values)).rows
  } finally {
    await client.end()
  }
}
