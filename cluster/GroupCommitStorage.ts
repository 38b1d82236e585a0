import {
  ClusterError,
  DeliverAt,
  Envelope,
  Message,
  MessageStorage,
  Reply,
  Snowflake,
  SqlMessageStorage
} from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { groupCommit } from "../src/sql/GroupCommit.js"
import { waitingOutOutage } from "../src/sql/OutageRetries.js"

const withoutHandlers = (storage: MessageStorage.MessageStorage["Type"]) => {
  const { registerReplyHandler: _r, unregisterReplyHandler: _u, unregisterShardReplyHandlers: _s, ...rest } = storage
  return rest
}

/** The library's table names (prefix `cluster`), message kind Request 0 and reply kinds WithExit 0, Chunk NULL. */
const messagesTable = "cluster_messages"
const repliesTable = "cluster_replies"
/** The library hashes longer primary keys before storing them; those requests keep its own path. */
const maxPlainKey = 255
const groupSettings = { maxGroup: 200 } as const

interface RequestRow {
  readonly id: string
  readonly messageId: string
  readonly shardId: string
  readonly envelope: Envelope.Request.Encoded
  readonly deliverAt: number | null
}

/**
 * @effect/cluster's SQL message storage, wrapped (not copied), with its two per-message writes made cheaper:
 * - a request with a primary key is inserted by group commit: the requests of concurrent callers share one INSERT;
 * - a final reply is saved by group commit in one data-modifying statement (atomic like the library's BEGIN,
 *   UPDATE, INSERT, COMMIT), again shared by the replies that arrive together.
 * Every state change of the service is such a request and reply, and their round trips and commits were most of a
 * stream update's CPU, the node's and PostgreSQL's (docs/performance.md, "Request throughput"). Duplicates, long keys, chunks
 * and everything else go through the library's own code.
 */
const make = Effect.gen(function*() {
  const sql = (yield* SqlClient.SqlClient).withoutTransforms()
  const library = yield* SqlMessageStorage.make()
  const messages = sql(messagesTable)
  const replies = sql(repliesTable)
  const persistence = ClusterError.PersistenceError.refail

  // The read loop's plan depends on the tables' statistics (see `prepareStorage` in Cluster.ts). Autovacuum may be
  // off, or a minute away, while a fresh table grows fast; analyzing each time this node's inserts double keeps the
  // statistics within a factor of two of the truth at the cost of a few dozen ANALYZE runs in a node's life.
  let inserted = 0
  let analyzeAt = 1024
  const keepStatistics = (count: number) => {
    inserted += count
    if (inserted < analyzeAt) return Effect.void
    analyzeAt *= 2
    return Effect.forkDaemon(Effect.ignore(sql`ANALYZE ${messages}, ${replies}`))
  }

  // ON CONFLICT skips a request whose primary key is already stored; the library then answers it as a duplicate.
  const insertRequests = yield* groupCommit({
    ...groupSettings,
    many: (rows: ReadonlyArray<RequestRow>) =>
      sql<{ id: string }>`
        INSERT INTO ${messages} (id, message_id, shard_id, entity_type, entity_id, kind, tag, payload, headers,
          trace_id, span_id, sampled, request_id, deliver_at)
        SELECT id, message_id, shard_id, entity_type, entity_id, 0, tag, payload, headers,
          trace_id, span_id, sampled, id, deliver_at
        FROM unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.messageId)}::text[],
          ${rows.map((r) => r.shardId)}::text[],
          ${rows.map((r) => r.envelope.address.entityType)}::text[], ${
        rows.map((r) => r.envelope.address.entityId)
      }::text[],
          ${rows.map((r) => r.envelope.tag)}::text[], ${rows.map((r) => JSON.stringify(r.envelope.payload))}::text[],
          ${rows.map((r) => JSON.stringify(r.envelope.headers))}::text[], ${
        rows.map((r) => r.envelope.traceId ?? null)
      }::text[],
          ${rows.map((r) => r.envelope.spanId ?? null)}::text[], ${
        rows.map((r) => r.envelope.sampled ?? null)
      }::boolean[],
          ${rows.map((r) => r.deliverAt === null ? null : String(r.deliverAt))}::bigint[])
          AS t(id, message_id, shard_id, entity_type, entity_id, tag, payload, headers, trace_id, span_id, sampled, deliver_at)
        ON CONFLICT (message_id) DO NOTHING
        RETURNING id::text AS id`.pipe(
        Effect.tap((inserted) => keepStatistics(inserted.length)),
        Effect.map((inserted) => {
          const ids = new Set(inserted.map((row) => row.id))
          return rows.map((row) => ids.has(row.id))
        })
      )
  })

  const saveRequest: MessageStorage.MessageStorage["Type"]["saveRequest"] = (message) => {
    const messageId = Envelope.primaryKey(message.envelope)
    if (messageId === null || messageId.length > maxPlainKey) return library.saveRequest(message)
    return Message.serializeEnvelope(message).pipe(
      Effect.flatMap((envelope) =>
        insertRequests({
          id: String(message.envelope.requestId),
          messageId,
          shardId: message.envelope.address.shardId.toString(),
          envelope: envelope as Envelope.Request.Encoded,
          deliverAt: DeliverAt.toMillis(message.envelope.payload)
        }).pipe(persistence)
      ),
      Effect.flatMap((inserted) =>
        inserted ? Effect.succeed(MessageStorage.SaveResult.Success()) : library.saveRequest(message)
      ),
      Effect.withTracerEnabled(false)
    )
  }

  const saveFinalReplies = yield* groupCommit({
    ...groupSettings,
    many: (rows: ReadonlyArray<Reply.WithExitEncoded<any>>) =>
      sql`
        WITH input AS (
          SELECT * FROM unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.requestId)}::bigint[],
            ${rows.map((r) => JSON.stringify(r.exit))}::text[]) AS t(id, request_id, payload)
        ), answered AS (
          UPDATE ${messages} m SET processed = TRUE, last_reply_id = input.id FROM input WHERE m.request_id = input.request_id
        )
        INSERT INTO ${replies} (id, kind, request_id, payload, sequence)
        SELECT id, 0, request_id, payload, NULL FROM input
        ON CONFLICT DO NOTHING`.pipe(Effect.map(() => rows.map(() => undefined)))
  })

  const saveChunk = (reply: Reply.ChunkEncoded<any>) =>
    sql`
      WITH answered AS (
        UPDATE ${messages} SET last_reply_id = ${reply.id} WHERE id = ${reply.requestId}
      )
      INSERT INTO ${replies} (id, kind, request_id, payload, sequence)
      VALUES (${reply.id}, NULL, ${reply.requestId}, ${JSON.stringify(reply.values)}, ${reply.sequence})
      ON CONFLICT DO NOTHING`

  // A reply that cannot be saved while the database is down is saved once it is back: failing it would make the
  // library restart the entity that answered and run its handler again. Saving one twice changes nothing.
  const saveReply = (reply: Reply.ReplyWithContext<any>) =>
    Reply.serialize(reply).pipe(
      Effect.flatMap((encoded) =>
        (encoded._tag === "WithExit" ? saveFinalReplies(encoded) : saveChunk(encoded)).pipe(
          waitingOutOutage,
          persistence
        )
      ),
      Effect.asVoid,
      Effect.withTracerEnabled(false)
    )
  let self: MessageStorage.MessageStorage["Type"] | undefined
  // Messages read back from storage answer through the storage that read them: rebind them to this one.
  const respond = (reply: Reply.ReplyWithContext<any>) => self!.saveReply(reply)
  const answeredHere = (messages: Array<Message.Incoming<any>>) =>
    messages.map((m) =>
      m._tag === "IncomingRequest"
        ? new Message.IncomingRequest({ envelope: m.envelope, lastSentReply: m.lastSentReply, respond })
        : m
    )
  // The library answers a stored message it cannot decode with a defect through its own reply handlers, which
  // nobody waits on here. Only messages from other nodes can be undecodable (this node decodes what it encoded),
  // and their senders wait through their own node, so no caller of this node is left hanging.
  self = yield* MessageStorage.make({
    ...withoutHandlers(library),
    saveRequest,
    saveReply,
    unprocessedMessages: (shardIds) => Effect.map(library.unprocessedMessages(shardIds), answeredHere),
    unprocessedMessagesById: (ids) => Effect.map(library.unprocessedMessagesById(ids), answeredHere)
  })
  return self
})

export const GroupCommitStorage = Layer.scoped(MessageStorage.MessageStorage, make).pipe(
  Layer.provide(Snowflake.layerGenerator)
)
