import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, FiberRef, Layer, Schema } from "effect"
import { entityCall } from "../domain/EntityCalls.js"
import { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { FeedListeners } from "../feeds/FeedListeners.js"
import type { StreamListener } from "../streams/StreamListeners.js"
import { StreamListeners } from "../streams/StreamListeners.js"
import { ChannelEntity } from "./ChannelEntity.js"

/**
 * Channels answering streams' `StreamListeners` and feeds' `FeedListeners` ports. Reads go straight to SQL; the one
 * write (a stream's new template) goes through each listening channel's entity, the only writer of its subscriptions.
 */
export const ChannelListeners = Layer.effect(
  StreamListeners,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const entity = yield* ChannelEntity.client
    const listening = SqlSchema.findAll({
      Request: WorkspaceId,
      Result: Schema.Struct({ streamId: Schema.String, channelId: Schema.String, channelName: Schema.String }),
      execute: (workspaceId) =>
        sql`SELECT s.stream_id, c.id AS channel_id, c.name AS channel_name
            FROM channel_subscriptions s JOIN channels c ON c.id = s.channel_id
            WHERE s.workspace_id = ${workspaceId} AND s.kind = 'STREAM' AND s.enabled AND c.deleted_at IS NULL
            ORDER BY c.created_at, c.id`
    })
    const subscribing = SqlSchema.findAll({
      Request: Schema.Struct({ workspaceId: WorkspaceId, streamId: Schema.String }),
      Result: Schema.Struct({ channelId: Schema.String }),
      execute: ({ streamId, workspaceId }) =>
        sql`SELECT DISTINCT s.channel_id FROM channel_subscriptions s JOIN channels c ON c.id = s.channel_id
            WHERE s.workspace_id = ${workspaceId} AND s.kind = 'STREAM' AND s.stream_id = ${streamId}
              AND c.deleted_at IS NULL`
    })
    return StreamListeners.of({
      listening: (workspaceId) =>
        listening(workspaceId).pipe(
          Effect.map((rows) => {
            const byStream = new Map<string, Array<StreamListener>>()
            for (const { channelId, channelName, streamId } of rows) {
              byStream.set(streamId, [...(byStream.get(streamId) ?? []), { channelId, channelName }])
            }
            return byStream
          }),
          Effect.orDie,
          Effect.withSpan("StreamListeners.listening")
        ),
      templateChanged: (workspaceId, streamId, templateId) =>
        Effect.gen(function*() {
          const requestId = yield* FiberRef.get(CurrentRequestId)
          const channels = yield* Effect.orDie(subscribing({ workspaceId, streamId }))
          const counts = yield* Effect.forEach(channels, ({ channelId }) =>
            entityCall(entity(channelId).StreamTemplateChanged({ requestId, workspaceId, streamId, templateId })), {
            concurrency: 8
          })
          return counts.reduce((sum, n) =>
            sum + n, 0)
        }).pipe(Effect.withSpan("StreamListeners.templateChanged", { attributes: { streamId } }))
    })
  })
).pipe(Layer.merge(Layer.effect(
  FeedListeners,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const subscribers = SqlSchema.findAll({
      Request: WorkspaceId,
      Result: Schema.Struct({ feedId: Schema.String, channels: Schema.Number }),
      execute: (workspaceId) =>
        sql`SELECT s.feed_id, count(DISTINCT s.channel_id)::int AS channels
            FROM channel_subscriptions s JOIN channels c ON c.id = s.channel_id
            WHERE s.workspace_id = ${workspaceId} AND s.kind = 'BROADCAST' AND s.enabled AND c.deleted_at IS NULL
            GROUP BY s.feed_id`
    })
    return FeedListeners.of({
      subscribers: (workspaceId) =>
        subscribers(workspaceId).pipe(
          Effect.map((rows) => new Map(rows.map((row) => [row.feedId, row.channels]))),
          Effect.orDie,
          Effect.withSpan("FeedListeners.subscribers")
        )
    })
  })
)))
