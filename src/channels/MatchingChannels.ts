import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"

/** One subscription an event reaches: the channel it publishes on and the output (shape, language) it wants. */
export const ChannelMatch = Schema.Struct({
  subscriptionId: Schema.String,
  channelId: Schema.String,
  channelName: Schema.String,
  ratio: Schema.String,
  locale: Schema.String,
  templateVariant: Schema.NullOr(Schema.String),
  templateVersion: Schema.NullOr(Schema.String)
})
export type ChannelMatch = typeof ChannelMatch.Type

const matchColumns = `s.id AS subscription_id, c.id AS channel_id, c.name AS channel_name, c.ratio, c.locale,
  s.template_variant, s.template_version`

// An event reaches an enabled subscription of an enabled, live channel; the order is the channels' list order.
const reaching = `FROM channel_subscriptions s JOIN channels c ON c.id = s.channel_id
  WHERE s.enabled AND c.enabled AND c.deleted_at IS NULL`

/**
 * Which channels an event reaches, read from the subscriptions (never waking a channel's entity). Read once per event
 * on the ingest path, so each is one indexed query.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One query per kind of input, each on the subscription column that names the input.
  const reachedBy = (kind: "STREAM" | "BROADCAST" | "QUEUE", column: "stream_id" | "feed_id" | "queue_id") =>
    SqlSchema.findAll({
      Request: Schema.Struct({ workspaceId: WorkspaceId, inputId: Schema.String }),
      Result: ChannelMatch,
      execute: ({ inputId, workspaceId }) =>
        sql`SELECT ${sql.unsafe(matchColumns)} ${sql.unsafe(reaching)}
              AND s.workspace_id = ${workspaceId} AND s.kind = ${kind} AND s.${sql(column)} = ${inputId}
            ORDER BY c.created_at, c.id`
    })
  const forStream = reachedBy("STREAM", "stream_id")
  const forFeed = reachedBy("BROADCAST", "feed_id")
  const forQueue = reachedBy("QUEUE", "queue_id")
  const feedAudience = SqlSchema.findAll({
    Request: Schema.String,
    Result: Schema.Struct({ workspaceId: WorkspaceId }),
    execute: (feedId) =>
      sql`SELECT DISTINCT s.workspace_id ${sql.unsafe(reaching)} AND s.kind = 'BROADCAST' AND s.feed_id = ${feedId}
          ORDER BY s.workspace_id`
  })
  return {
    /** The workspace's channels an event on the stream reaches. */
    forStream: (workspaceId: WorkspaceId, streamId: string) =>
      Effect.orDie(forStream({ workspaceId, inputId: streamId })),
    /** The workspace's channels a feed event reaches (whether the feed is on is the feeds area's to say). */
    forFeed: (workspaceId: WorkspaceId, feedId: string) => Effect.orDie(forFeed({ workspaceId, inputId: feedId })),
    /** The workspace's channels a post list's fired post reaches (each post pins its own variant and version). */
    forQueue: (workspaceId: WorkspaceId, queueId: string) => Effect.orDie(forQueue({ workspaceId, inputId: queueId })),
    /** Every workspace with at least one channel a feed event would reach: where a broadcast goes. */
    feedAudience: (feedId: string) =>
      Effect.map(Effect.orDie(feedAudience(feedId)), (rows) => rows.map((row) => row.workspaceId))
  }
})

export class MatchingChannels extends Context.Tag("clipwright/channels/MatchingChannels")<
  MatchingChannels,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(MatchingChannels, make)
}
