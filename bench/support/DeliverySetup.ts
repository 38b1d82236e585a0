import { Either } from "effect"
import { ulid } from "ulid"
import { resolveBuild } from "../../src/templates/TemplateRegistry.js"
import { call } from "./Common.js"
import type { BenchDatabase } from "./PipelineSetup.js"

const MARKET = "tpl_3a7c91e04b5d"
const VARIANT = "compact"

export interface DeliveryTarget {
  readonly workspaceId: string
  readonly key: string
  readonly secret: string
  readonly streamId: string
  readonly streamName: string
  readonly subscriptionId: string
  readonly channel: {
    readonly id: string
    readonly platform: string
    readonly surface: string
    readonly ratio: string
    readonly locale: string
  }
}

type Node = { readonly url: string; readonly adminToken: string }

/**
 * Through the API: a workspace whose webhook is `webhookUrl`, a brand, a Market move stream and one channel that hands
 * over by webhook only, subscribed to the stream (the jobs seeded below name that subscription).
 */
export const prepareDeliveries = async (node: Node, webhookUrl: string): Promise<DeliveryTarget> => {
  const admin = node.adminToken
  const workspace = (await call(`${node.url}/admin/workspaces`, "POST", admin, {
    name: "Deliveries bench",
    ownerEmail: "owner@example.test"
  })).json
  const workspaceId: string = workspace.accountId
  const { secret } =
    (await call(`${node.url}/admin/workspaces/${workspaceId}/webhook`, "PUT", admin, { url: webhookUrl })).json
  const key: string =
    (await call(`${node.url}/admin/workspaces/${workspaceId}/keys`, "POST", admin, { scopes: ["*"] })).json.apiKey
  await call(`${node.url}/v1/brands`, "POST", key, { name: "House" })
  const streamName = "Bench prices"
  const { stream } = (await call(`${node.url}/v1/streams`, "POST", key, { name: streamName, templateId: MARKET })).json
  const { channel } = (await call(`${node.url}/v1/channels`, "POST", key, {
    name: "Bench shorts",
    surface: "youtube-shorts",
    deliverByWebhook: true,
    deliverByEmail: false
  })).json
  const subscribed = (await call(`${node.url}/v1/channels/${channel.id}/subscriptions`, "POST", key, {
    kind: "STREAM",
    streamId: stream.id,
    templateVariant: VARIANT
  })).json.channel
  return {
    workspaceId,
    key,
    secret,
    streamId: stream.id,
    streamName,
    subscriptionId: subscribed.subscriptions[0].id,
    channel: {
      id: channel.id,
      platform: channel.platform,
      surface: channel.surface,
      ratio: channel.ratio,
      locale: channel.locale
    }
  }
}

/** Post `i`'s document: its own title and captions, as an event sent to the stream would carry. */
const contentOf = (i: number) => ({
  clipData: { headline: `Gold climbs for a ${i + 1}. session`, subline: `Bullion tops $${2400 + (i % 500)}` },
  metaData: {
    title: `Gold, session ${i + 1}`,
    captionShort: "Gold climbs.",
    captionMedium: `Gold climbed for a ${i + 1}. session as the dollar slid.`,
    captionLong: `Gold climbed for a ${i + 1}. session on Tuesday as the dollar slid for a third day running.`,
    hashtags: ["gold", "markets"]
  }
})

/** Not due: seeded posts wait here until `arm` gives them their times. */
const LATER = new Date("2100-01-01T00:00:00Z")

/**
 * Writes `count` posts straight into the tables, as the pipeline leaves them once their video is ready: per post an
 * accepted stream event, its job and its post, both SCHEDULED but not due, all showing one finished render and its
 * stored clip (so each webhook carries a signed video link). Answers the job ids in order.
 */
export const seedPosts = async (db: BenchDatabase, target: DeliveryTarget, count: number) => {
  const renderJobId = ulid()
  const { channel, workspaceId } = target
  const { build, template } = Either.getOrThrow(resolveBuild(MARKET, { variant: VARIANT }))
  await db.rows(
    `INSERT INTO render_jobs (id, workspace_id, origin, details, post_title, template_id, template_name, template_variant,
       template_version, state, outputs_requested, outputs_succeeded, progress, attempt, package, started_at, finished_at)
     VALUES ($1, $2, 'custom', $3, 'Gold', $4, $5, $6, $7, 'COMPLETED', 1, 1, 1, 1, '{}'::jsonb, now(), now())`,
    [renderJobId, workspaceId, target.streamName, MARKET, template.name, VARIANT, build.version]
  )
  await db.rows(
    `INSERT INTO clips (id, workspace_id, render_job_id, ratio, locale, width, height, duration_ms, byte_size, sha256, blob_key)
     VALUES ($1, $2, $3, $4, $5, 1080, 1920, 8000, 1048576, repeat('0', 64), $6)`,
    [ulid(), workspaceId, renderJobId, channel.ratio, channel.locale, `clips/${renderJobId}.mp4`]
  )
  const jobIds: Array<string> = []
  for (let from = 0; from < count; from += 1000) {
    const n = Math.min(1000, count - from)
    const contents = Array.from({ length: n }, (_, i) => contentOf(from + i))
    const events = contents.map(() => ulid())
    const jobs = contents.map(() => ulid())
    const posts = contents.map(() => ulid())
    jobIds.push(...jobs)
    await db.rows(
      `WITH e AS (
         INSERT INTO ingest_events (id, workspace_id, event_id, body_hash, input, origin, stream_id, details, post_title,
           status, occurred_at, data, normalized, request_id)
         SELECT id, $2, event_id, md5(content), 'stream', 'custom', $3, $4, content::jsonb -> 'metaData' ->> 'title',
           'ACCEPTED', now(), content::jsonb, content::jsonb, 'bench-' || event_id
         FROM unnest($1::text[], $5::text[], $6::text[]) AS t(id, event_id, content) RETURNING id),
       j AS (
         INSERT INTO jobs (id, workspace_id, ingest_event_id, channel_id, subscription_id, origin, status, template_id,
           template_variant, template_version, ratio, locale, scheduled_for, render_job_id, dispatched_at)
         SELECT job, $2, event, $7, $8, 'custom', 'SCHEDULED', $9, $17, NULL, $10, $11, $12, $13, now()
         FROM unnest($1::text[], $14::text[]) AS t(event, job) WHERE event IN (SELECT id FROM e) RETURNING id)
       INSERT INTO posts (id, workspace_id, job_id, channel_id, render_job_id, platform, surface, locale, ratio, state,
         title, caption, hashtags, scheduled_for)
       SELECT post, $2, job, $7, $13, $15, $16, $11, $10, 'SCHEDULED', content::jsonb -> 'metaData' ->> 'title',
         content::jsonb -> 'metaData' ->> 'captionLong', content::jsonb -> 'metaData' -> 'hashtags', $12
       FROM unnest($14::text[], $6::text[], $18::text[]) AS t(job, content, post) WHERE job IN (SELECT id FROM j)`,
      [
        events,
        workspaceId,
        target.streamId,
        target.streamName,
        events.map(() => ulid()),
        contents.map((c) => JSON.stringify(c)),
        channel.id,
        target.subscriptionId,
        MARKET,
        channel.ratio,
        channel.locale,
        LATER,
        renderJobId,
        jobs,
        channel.platform,
        channel.surface,
        VARIANT,
        posts
      ]
    )
  }
  // Statistics as a table in use would have: planned on a fresh table's defaults, the hand-over's lookups by event
  // scan every job of the workspace through the workspace index.
  await db.rows("ANALYZE ingest_events, jobs, posts")
  return jobIds
}

/**
 * Gives the seeded posts their times in one statement: the jobs of burst `b` (of `perBurst` each, in seeding order) are
 * due at `firstDueAt + b × everyMs`. Answers the due time of each burst.
 */
export const arm = async (
  db: BenchDatabase,
  jobIds: ReadonlyArray<string>,
  perBurst: number,
  firstDueAt: number,
  everyMs: number
) => {
  const dueAt = jobIds.map((_, i) => new Date(firstDueAt + Math.floor(i / perBurst) * everyMs))
  await db.rows(
    `WITH t AS (SELECT * FROM unnest($1::text[], $2::timestamptz[]) AS t(job, due)),
       j AS (UPDATE jobs SET scheduled_for = t.due FROM t WHERE jobs.id = t.job RETURNING 1)
     UPDATE posts SET scheduled_for = t.due FROM t WHERE posts.job_id = t.job`,
    [jobIds, dueAt]
  )
  return [...new Set(dueAt.map((d) => d.getTime()))]
}
