import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { nameTakenOnUnique, transactionOrDie } from "../sql/Unique.js"
import { PackageContent, PackageRecord, QueueRecord } from "./PostListRecord.js"

const OfList = Schema.Struct({ workspaceId: WorkspaceId, queueId: Schema.String })
const OfPackage = Schema.Struct({ ...OfList.fields, packageId: Schema.String })
const Returned = Schema.Struct({ id: Schema.String })
/** What a timer is set from. */
export const Armed = Schema.Struct({ id: Schema.String, scheduledFor: Schema.DateFromSelf, armed: Schema.Number })
export type Armed = typeof Armed.Type

/**
 * A list's rows and its packages, as its entity reads and writes them; every method is scoped to one workspace and
 * one list.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const insertList = SqlSchema.findOne({
    Request: QueueRecord.insert,
    Result: Returned,
    execute: (row) => sql`INSERT INTO queues ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING id`
  })
  const findList = SqlSchema.findOne({
    Request: OfList,
    Result: QueueRecord,
    execute: ({ queueId, workspaceId }) =>
      sql`SELECT * FROM queues WHERE id = ${queueId} AND workspace_id = ${workspaceId}`
  })
  const updateList = SqlSchema.findOne({
    Request: Schema.Struct({ ...OfList.fields, name: Schema.String, enabled: Schema.Boolean }),
    Result: Returned,
    execute: ({ enabled, name, queueId, workspaceId }) =>
      sql`UPDATE queues SET name = ${name}, enabled = ${enabled}, updated_at = now()
          WHERE id = ${queueId} AND workspace_id = ${workspaceId} AND deleted_at IS NULL RETURNING id`
  })
  const markDeleted = SqlSchema.void({
    Request: Schema.Struct({ ...OfList.fields, requestId: Schema.String, removed: Schema.Number }),
    execute: ({ queueId, removed, requestId, workspaceId }) =>
      // History (its fired posts' events) names it with ' (removed)', as deleted streams and channels.
      sql`UPDATE queues SET deleted_at = now(), updated_at = now(), delete_request_id = ${requestId}, name = name || ' (removed)',
            removed_from_channels = ${removed}
          WHERE id = ${queueId} AND workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })
  const removePackagesOf = SqlSchema.void({
    Request: OfList,
    execute: ({ queueId, workspaceId }) =>
      sql`DELETE FROM queue_packages WHERE queue_id = ${queueId} AND workspace_id = ${workspaceId}`
  })
  // The live channels holding a subscription to the list: what its deletion unsubscribes.
  const subscriptionsTo = SqlSchema.findAll({
    Request: OfList,
    Result: Schema.Struct({ channelId: Schema.String, subscriptionId: Schema.String }),
    execute: ({ queueId, workspaceId }) =>
      sql`SELECT s.channel_id, s.id AS subscription_id
          FROM channel_subscriptions s JOIN channels c ON c.id = s.channel_id
          WHERE s.workspace_id = ${workspaceId} AND s.kind = 'QUEUE' AND s.queue_id = ${queueId}
            AND c.deleted_at IS NULL
          ORDER BY c.created_at, c.id`
  })
  const insertPackage = SqlSchema.findOne({
    Request: PackageRecord.insert,
    Result: Returned,
    execute: (row) => sql`INSERT INTO queue_packages ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING id`
  })
  const findPackage = SqlSchema.findOne({
    Request: OfPackage,
    Result: PackageRecord,
    execute: ({ packageId, queueId, workspaceId }) =>
      sql`SELECT * FROM queue_packages
          WHERE id = ${packageId} AND queue_id = ${queueId} AND workspace_id = ${workspaceId}`
  })
  // A new time is a new timer: the count goes up, and the request that set it is kept.
  const writePackage = SqlSchema.findOne({
    Request: Schema.Struct({ ...OfPackage.fields, content: PackageContent, armedBy: Schema.String }),
    Result: Returned,
    execute: ({ armedBy, content: c, packageId, queueId, workspaceId }) =>
      sql`UPDATE queue_packages SET title = ${c.title}, template_id = ${c.templateId},
            template_variant = ${c.templateVariant}, template_version = ${c.templateVersion},
            data = ${JSON.stringify(c.data)}::jsonb,
            armed = CASE WHEN scheduled_for = ${new Date(c.scheduledFor)} THEN armed ELSE armed + 1 END,
            armed_by = CASE WHEN scheduled_for = ${new Date(c.scheduledFor)} THEN armed_by ELSE ${armedBy} END,
            scheduled_for = ${new Date(c.scheduledFor)}, updated_at = now()
          WHERE id = ${packageId} AND queue_id = ${queueId} AND workspace_id = ${workspaceId}
            AND state = 'SCHEDULED' RETURNING id`
  })
  const cancelPackage = SqlSchema.findOne({
    Request: OfPackage,
    Result: Returned,
    execute: ({ packageId, queueId, workspaceId }) =>
      sql`UPDATE queue_packages SET state = 'CANCELLED', updated_at = now()
          WHERE id = ${packageId} AND queue_id = ${queueId} AND workspace_id = ${workspaceId}
            AND state = 'SCHEDULED' RETURNING id`
  })
  const removePackage = SqlSchema.findOne({
    Request: OfPackage,
    Result: Returned,
    execute: ({ packageId, queueId, workspaceId }) =>
      sql`DELETE FROM queue_packages WHERE id = ${packageId} AND queue_id = ${queueId}
            AND workspace_id = ${workspaceId} RETURNING id`
  })
  // Packages whose time passed while the list was off: a new timer each, unless this request already set it.
  const rearmPast = SqlSchema.void({
    Request: Schema.Struct({ ...OfList.fields, armedBy: Schema.String }),
    execute: ({ armedBy, queueId, workspaceId }) =>
      sql`UPDATE queue_packages SET armed = armed + 1, armed_by = ${armedBy}, updated_at = now()
          WHERE queue_id = ${queueId} AND workspace_id = ${workspaceId} AND state = 'SCHEDULED'
            AND scheduled_for <= now() AND armed_by IS DISTINCT FROM ${armedBy}`
  })
  const armedBy = SqlSchema.findAll({
    Request: Schema.Struct({ ...OfList.fields, armedBy: Schema.String }),
    Result: Armed,
    execute: ({ armedBy, queueId, workspaceId }) =>
      sql`SELECT id, scheduled_for, armed FROM queue_packages
          WHERE queue_id = ${queueId} AND workspace_id = ${workspaceId} AND state = 'SCHEDULED'
            AND armed_by = ${armedBy}`
  })
  const markFired = SqlSchema.void({
    Request: Schema.Struct({ ...OfPackage.fields, ingestEventId: Schema.String, firedAt: Schema.DateFromSelf }),
    execute: ({ firedAt, ingestEventId, packageId, queueId, workspaceId }) =>
      sql`UPDATE queue_packages SET state = 'FIRED', fired_at = ${firedAt}, ingest_event_id = ${ingestEventId},
            updated_at = now()
          WHERE id = ${packageId} AND queue_id = ${queueId} AND workspace_id = ${workspaceId}
            AND state = 'SCHEDULED'`
  })
  // A reference is a JSON string `"media://<id>"`; ids are ULIDs, so the text form holds it exactly once per use.
  const repointMedia = SqlSchema.findAll({
    Request: Schema.Struct({ ...OfList.fields, fileId: Schema.String, nextId: Schema.String }),
    Result: Returned,
    execute: ({ fileId, nextId, queueId, workspaceId }) =>
      sql`UPDATE queue_packages
          SET data = replace(data::text, ${`"media://${fileId}"`}, ${`"media://${nextId}"`})::jsonb,
            updated_at = now()
          WHERE queue_id = ${queueId} AND workspace_id = ${workspaceId} AND state = 'SCHEDULED'
            AND strpos(data::text, ${`"media://${fileId}"`}) > 0
          RETURNING id`
  })

  return {
    /** None when the id exists or the name is taken. */
    insertList: (workspaceId: WorkspaceId, queueId: string, name: string, createRequestId: string) =>
      Effect.orDie(
        insertList(QueueRecord.insert.make({ id: queueId, workspaceId, name, enabled: true, createRequestId }))
      ),
    /** The list, deleted or not. */
    findList: (workspaceId: WorkspaceId, queueId: string) => Effect.orDie(findList({ workspaceId, queueId })),
    /** None when there is no live list. */
    updateList: (workspaceId: WorkspaceId, queueId: string, name: string, enabled: boolean) =>
      nameTakenOnUnique(updateList({ workspaceId, queueId, name, enabled })),
    markDeleted: (workspaceId: WorkspaceId, queueId: string, requestId: string, removed: number) =>
      Effect.orDie(markDeleted({ workspaceId, queueId, requestId, removed })),
    removePackagesOf: (workspaceId: WorkspaceId, queueId: string) =>
      Effect.orDie(removePackagesOf({ workspaceId, queueId })),
    subscriptionsTo: (workspaceId: WorkspaceId, queueId: string) =>
      Effect.orDie(subscriptionsTo({ workspaceId, queueId })),
    insertPackage: (row: typeof PackageRecord.insert.Type) => Effect.orDie(insertPackage(row)),
    findPackage: (workspaceId: WorkspaceId, queueId: string, packageId: string) =>
      Effect.orDie(findPackage({ workspaceId, queueId, packageId })),
    /** None when the package is not SCHEDULED (or gone). */
    writePackage: (
      workspaceId: WorkspaceId,
      queueId: string,
      packageId: string,
      content: PackageContent,
      armedBy: string
    ) => Effect.orDie(writePackage({ workspaceId, queueId, packageId, content, armedBy })),
    cancelPackage: (workspaceId: WorkspaceId, queueId: string, packageId: string) =>
      Effect.orDie(cancelPackage({ workspaceId, queueId, packageId })),
    removePackage: (workspaceId: WorkspaceId, queueId: string, packageId: string) =>
      Effect.orDie(removePackage({ workspaceId, queueId, packageId })),
    /** A new timer count on every scheduled package whose time passed, unless `key` already armed it. */
    rearmPast: (workspaceId: WorkspaceId, queueId: string, key: string) =>
      Effect.orDie(rearmPast({ workspaceId, queueId, armedBy: key })),
    /** The scheduled packages `key` armed last: what a re-run of that request sends timers for again. */
    armedBy: (workspaceId: WorkspaceId, queueId: string, key: string) =>
      Effect.orDie(armedBy({ workspaceId, queueId, armedBy: key })),
    markFired: (workspaceId: WorkspaceId, queueId: string, packageId: string, ingestEventId: string, firedAt: Date) =>
      Effect.orDie(markFired({ workspaceId, queueId, packageId, ingestEventId, firedAt })),
    repointMedia: (workspaceId: WorkspaceId, queueId: string, fileId: string, nextId: string) =>
      Effect.map(Effect.orDie(repointMedia({ workspaceId, queueId, fileId, nextId })), (rows) => rows.length),
    withTransaction: transactionOrDie(sql)
  }
})

export class PostListRepo extends Context.Tag("clipwright/queues/PostListRepo")<
  PostListRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(PostListRepo, make)
}
