import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { NewSubscription, SubscriptionRecord, SubscriptionState } from "./SubscriptionRecord.js"

// A QUEUE subscription shows its list's name as it is now, so a renamed list needs no write here.
const columns = "s.id, s.workspace_id, s.channel_id, s.kind, s.input_key, s.source_slug, s.format_slug, s.feed_id, " +
  "s.stream_id, s.queue_id, s.template_id, s.template_variant, s.template_version, s.enabled, s.create_request_id, " +
  "s.created_at, s.updated_at, (SELECT q.name FROM queues q WHERE q.id = s.queue_id " +
  "AND q.workspace_id = s.workspace_id AND q.deleted_at IS NULL) AS queue_name"

const OfChannel = Schema.Struct({ workspaceId: WorkspaceId, channelId: Schema.String })
const OfSubscription = Schema.Struct({ workspaceId: WorkspaceId, channelId: Schema.String, id: Schema.String })
const Returned = Schema.Struct({ id: Schema.String })

/** Subscriptions, always within one workspace (and one channel for every single-row query). */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ofChannels = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, channelIds: Schema.Array(Schema.String) }),
    Result: SubscriptionRecord,
    execute: ({ channelIds, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM channel_subscriptions s
          WHERE s.workspace_id = ${workspaceId} AND s.channel_id = ANY(${channelIds}::text[])
          ORDER BY s.created_at, s.id`
  })
  const findOne = SqlSchema.findOne({
    Request: OfSubscription,
    Result: SubscriptionRecord,
    execute: ({ channelId, id, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM channel_subscriptions s
          WHERE s.workspace_id = ${workspaceId} AND s.channel_id = ${channelId} AND s.id = ${id}`
  })
  const findInput = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, channelId: Schema.String, inputKey: Schema.String }),
    Result: SubscriptionRecord,
    execute: ({ channelId, inputKey, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM channel_subscriptions s
          WHERE s.workspace_id = ${workspaceId} AND s.channel_id = ${channelId} AND s.input_key = ${inputKey}`
  })
  const liveQueue = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, queueId: Schema.String }),
    Result: Returned,
    execute: ({ queueId, workspaceId }) =>
      sql`SELECT id FROM queues WHERE id = ${queueId} AND workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })
  const insert = SqlSchema.findOne({
    Request: SubscriptionRecord.insert,
    Result: Returned,
    execute: (row) => sql`INSERT INTO channel_subscriptions ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING id`
  })
  const update = SqlSchema.findOne({
    Request: Schema.Struct({ ...OfSubscription.fields, state: SubscriptionState }),
    Result: Returned,
    execute: ({ channelId, id, state, workspaceId }) =>
      sql`UPDATE channel_subscriptions SET template_variant = ${state.templateVariant},
            template_version = ${state.templateVersion}, enabled = ${state.enabled}, updated_at = now()
          WHERE workspace_id = ${workspaceId} AND channel_id = ${channelId} AND id = ${id} RETURNING id`
  })
  const remove = SqlSchema.findOne({
    Request: OfSubscription,
    Result: Returned,
    execute: ({ channelId, id, workspaceId }) =>
      sql`DELETE FROM channel_subscriptions
          WHERE workspace_id = ${workspaceId} AND channel_id = ${channelId} AND id = ${id} RETURNING id`
  })
  const followTemplate = SqlSchema.findAll({
    Request: Schema.Struct({ ...OfChannel.fields, streamId: Schema.String, templateId: Schema.String }),
    Result: Returned,
    execute: ({ channelId, streamId, templateId, workspaceId }) =>
      sql`UPDATE channel_subscriptions SET template_id = ${templateId}, template_variant = NULL,
            template_version = NULL, updated_at = now()
          WHERE workspace_id = ${workspaceId} AND channel_id = ${channelId} AND kind = 'STREAM'
            AND stream_id = ${streamId} RETURNING id`
  })
  const lockChannel = SqlSchema.findOne({
    Request: OfChannel,
    Result: Returned,
    execute: ({ channelId, workspaceId }) =>
      sql`SELECT id FROM channels WHERE id = ${channelId} AND workspace_id = ${workspaceId} AND deleted_at IS NULL
          FOR UPDATE`
  })

  return {
    /** The subscriptions of these channels, oldest first. */
    ofChannels: (workspaceId: WorkspaceId, channelIds: ReadonlyArray<string>) =>
      Effect.orDie(ofChannels({ workspaceId, channelIds })),
    find: (workspaceId: WorkspaceId, channelId: string, id: string) =>
      Effect.orDie(findOne({ workspaceId, channelId, id })),
    findInput: (workspaceId: WorkspaceId, channelId: string, inputKey: string) =>
      Effect.orDie(findInput({ workspaceId, channelId, inputKey })),
    /** Whether the workspace has this live post list (what a QUEUE subscription names). */
    queueExists: (workspaceId: WorkspaceId, queueId: string) =>
      liveQueue({ workspaceId, queueId }).pipe(Effect.map(Option.isSome), Effect.orDie),
    /** None when the channel already has this input (or the id exists). */
    insert: (workspaceId: WorkspaceId, channelId: string, sub: NewSubscription, createRequestId: string) =>
      Effect.orDie(insert(SubscriptionRecord.insert.make({
        ...sub,
        workspaceId,
        channelId,
        enabled: true,
        createRequestId
      }))),
    update: (workspaceId: WorkspaceId, channelId: string, id: string, state: SubscriptionState) =>
      Effect.orDie(update({ workspaceId, channelId, id, state })),
    remove: (workspaceId: WorkspaceId, channelId: string, id: string) =>
      Effect.orDie(remove({ workspaceId, channelId, id })),
    /** The channel's subscription to the stream takes its new template at the first variant and newest build. */
    followTemplate: (workspaceId: WorkspaceId, channelId: string, streamId: string, templateId: string) =>
      followTemplate({ workspaceId, channelId, streamId, templateId }).pipe(
        Effect.map((rows) => rows.length),
        Effect.orDie
      ),
    /** The live channel's row, locked until the transaction ends: its subscription changes run one at a time. */
    lockChannel: (workspaceId: WorkspaceId, channelId: string) => Effect.orDie(lockChannel({ workspaceId, channelId }))
  }
})

export class SubscriptionRepo extends Context.Tag("clipwright/channels/SubscriptionRepo")<
  SubscriptionRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(SubscriptionRepo, make)
}
