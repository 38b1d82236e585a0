import { createHash, randomUUID } from "node:crypto"
import { createServer, type ServerResponse } from "node:http"
import pg from "pg"
import { createPlainSchema, PLAIN_CHANNELS, PLAIN_WORKSPACE } from "./PlainIngestSchema.js"

/**
 * The yardstick of the ingest benchmark: a bare `node:http` server with a `pg.Pool` doing the durable write the way a
 * plain service would: per request it parses the JSON body, hashes it (sha256) and, in one transaction of its own,
 * inserts the event row and its two job rows before answering 202. Run as its own process on its own database
 * (`DATABASE_URL`); prints `ready` once its tables exist and it listens.
 */
const port = Number(process.env["PORT"] ?? "0")
// clipwright's pool holds 10 connections too (src/sql/Database.ts).
const pool = new pg.Pool({ connectionString: process.env["DATABASE_URL"], max: 10 })

const answer = (response: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
    .end(text)
}

const newId = (prefix: string) => `${prefix}_${randomUUID().replaceAll("-", "")}`

const land = async (raw: string) => {
  const body = JSON.parse(raw)
  const hash = createHash("sha256").update(raw).digest("hex")
  const eventRowId = newId("ie")
  const jobIds = PLAIN_CHANNELS.map(() => newId("job"))
  const data = JSON.stringify(body.data)
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    await client.query(
      `INSERT INTO ingest_events (id, workspace_id, event_id, body_hash, input, origin, stream_id, details, post_title,
         status, occurred_at, locale, data, normalized, warnings, request_id)
       VALUES ($1, $2, $3, $4, 'stream', 'custom', $5, 'Bench stream', $6, 'ACCEPTED', $7, $8, $9, $9, '[]', $10)`,
      [
        eventRowId,
        PLAIN_WORKSPACE,
        body.eventId,
        hash,
        body.streamId,
        body.data?.metaData?.title ?? null,
        body.occurredAt,
        body.locale ?? null,
        data,
        newId("req")
      ]
    )
    await client.query(
      `INSERT INTO jobs (id, workspace_id, ingest_event_id, channel_id, subscription_id, origin, status, template_id,
         template_variant, template_version, ratio, locale)
       VALUES ($1, $3, $4, $5, 'sub_a', 'custom', 'ACCEPTED', 'tpl_3a7c91e04b5d', 'standard', NULL, '9x16', 'en'),
              ($2, $3, $4, $6, 'sub_b', 'custom', 'ACCEPTED', 'tpl_3a7c91e04b5d', 'standard', NULL, '9x16', 'en')`,
      [jobIds[0], jobIds[1], PLAIN_WORKSPACE, eventRowId, PLAIN_CHANNELS[0], PLAIN_CHANNELS[1]]
    )
    await client.query("COMMIT")
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
  return {
    ingestEventId: eventRowId,
    status: "accepted",
    idempotent: false,
    streamId: body.streamId,
    matched: PLAIN_CHANNELS.map((channelId, i) => ({ channelId, postGroupId: jobIds[i] })),
    warnings: []
  }
}

const server = createServer((request, response) => {
  if (request.method !== "POST" || !(request.headers["authorization"] ?? "").startsWith("Bearer ")) {
    answer(response, 401, { error: { code: "unauthenticated" } })
    return
  }
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    land(Buffer.concat(chunks).toString("utf8")).then(
      (landed) => answer(response, 202, landed),
      (error: unknown) => answer(response, 500, { error: { code: "internal", message: String(error) } })
    )
  })
})

const schemaClient = await pool.connect()
await createPlainSchema(schemaClient)
schemaClient.release()
server.listen(port, "127.0.0.1", () => process.stdout.write("ready\n"))
process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))))
