import { query } from "../../test/support/Database.js"

export interface ConsoleVolume {
  readonly jobs: number
  readonly waiting: number
}

/**
 * Fills a workspace to a reviewer's busy day from one real job waiting for approval (its render and clip are real,
 * so every copy plays the same video): `jobs` jobs with their posts, the newest `waiting` of them waiting for
 * approval, a tenth of the rest decided, one in fifty failed, and some dead deliveries. Ids are 26 Crockford digits
 * as ULIDs are, and sort by age like them.
 */
export const seedConsole = async (dbUrl: string, workspaceId: string, templateJobId: string, volume: ConsoleVolume) => {
  const id = (prefix: string) => `'01J${prefix}' || lpad((100000 - i)::text, 22, '0')`
  const status = `CASE WHEN i <= ${volume.waiting} THEN 'AWAITING_APPROVAL'
      WHEN i % 50 = 0 THEN 'POST_FAILED' WHEN i % 10 = 1 THEN 'REJECTED' ELSE 'PUBLISHED' END`
  const series = `generate_series(1, ${volume.jobs}) AS i, (SELECT * FROM jobs WHERE id = $1) AS t`
  await query(
    dbUrl,
    `
    INSERT INTO jobs (id, workspace_id, ingest_event_id, channel_id, subscription_id, origin, status, template_id,
      template_variant, template_version, ratio, locale, scheduled_for, created_at, updated_at, render_job_id, error,
      finished_at)
    SELECT ${id("A")}, t.workspace_id, t.ingest_event_id, t.channel_id, t.subscription_id, t.origin, ${status},
      t.template_id, t.template_variant, t.template_version, t.ratio, t.locale, now() + interval '1 day',
      now() - make_interval(mins => i), now() - make_interval(mins => i), t.render_job_id,
      CASE WHEN i % 50 = 0 THEN 'The receiver answered 500.' END, NULL
    FROM ${series}`,
    [templateJobId]
  )
  await query(
    dbUrl,
    `
    INSERT INTO posts (id, workspace_id, job_id, channel_id, render_job_id, platform, surface, locale, ratio, state, title,
      caption, hashtags, scheduled_for, created_at, updated_at)
    SELECT ${id("B")}, p.workspace_id, ${id("A")}, p.channel_id, p.render_job_id, p.platform, p.surface, p.locale,
      p.ratio, ${status}, p.title || ' #' || i, p.caption, p.hashtags, now() + interval '1 day',
      now() - make_interval(mins => i), now() - make_interval(mins => i)
    FROM generate_series(1, ${volume.jobs}) AS i, (SELECT * FROM posts WHERE job_id = $1) AS p`,
    [templateJobId]
  )
  await query(
    dbUrl,
    `
    INSERT INTO approvals (id, workspace_id, job_id, channel_id, state, note, requested_at, decided_at, decided_by,
      announced_at)
    SELECT ${id("C")}, t.workspace_id, ${id("A")}, t.channel_id,
      CASE WHEN i <= ${volume.waiting} THEN 'PENDING' WHEN i % 10 = 1 THEN 'REJECTED' ELSE 'APPROVED' END,
      CASE WHEN i % 10 = 1 THEN 'Wrong figure' END, now() - make_interval(mins => i),
      CASE WHEN i > ${volume.waiting} THEN now() - make_interval(mins => i) END,
      CASE WHEN i > ${volume.waiting} THEN 'user:reviewer@example.test' END, now()
    FROM ${series}
    WHERE i <= ${volume.waiting} OR i % 5 = 0 OR i % 10 = 1`,
    [templateJobId]
  )
  await query(
    dbUrl,
    `
    INSERT INTO deliveries (id, workspace_id, owner, via, event, state, attempt, last_status_code, last_error,
      created_at, updated_at)
    SELECT ${id("D")}, $1, 'bench', 'webhook', 'post.publish', CASE WHEN i % 20 = 0 THEN 'DEAD' ELSE 'DELIVERED' END,
      3, 500, 'The receiver answered 500.', now() - make_interval(mins => i), now() - make_interval(mins => i)
    FROM generate_series(1, ${volume.jobs}) AS i`,
    [workspaceId]
  )
  await query(dbUrl, "ANALYZE")
}

const TEMPLATE_ID = "tpl_3a7c91e04b5d"

/** A call of the node as the admin (`/admin`) or with a key (`/v1`); throws on any answer but 2xx. */
const send = async (url: string, token: string, method: string, body?: unknown) => {
  const answer = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await answer.text()
  if (!answer.ok) throw new Error(`${method} ${url}: ${answer.status} ${text}`)
  return JSON.parse(text) as any
}

/**
 * A workspace owned by `ownerEmail` with a brand, a stream and a channel asking for approval, and one event sent on
 * it (the market-move template's compact variant, a few seconds to render). Answers the workspace and the job.
 */
export const openReviewDesk = async (node: { url: string; adminToken: string }, ownerEmail: string) => {
  const made = await send(`${node.url}/admin/workspaces`, node.adminToken, "POST", { name: "Busy desk", ownerEmail })
  const workspaceId = made.accountId as string
  const key =
    (await send(`${node.url}/admin/workspaces/${workspaceId}/keys`, node.adminToken, "POST", { scopes: ["*"] }))
      .apiKey as string
  const v1 = (path: string, body?: unknown) =>
    send(`${node.url}/v1${path}`, key, body === undefined ? "GET" : "POST", body)
  await v1("/brands", { name: "House" })
  const streamId = (await v1("/streams", { name: "Prices", templateId: TEMPLATE_ID })).stream.id as string
  const channelId = (await v1("/channels", { name: "Reviewed", surface: "tiktok", approval: "PER_POST" })).channel.id
  await v1(`/channels/${channelId}/subscriptions`, { kind: "STREAM", streamId, templateVariant: "compact" })
  const sent = await v1("/stream", {
    streamId,
    eventId: `01J${String(Date.now()).padStart(23, "0")}`,
    occurredAt: new Date().toISOString(),
    data: {
      clipData: { headline: "Gold climbs to a record", subline: "Bullion tops $2,400" },
      metaData: { title: "Gold at a record", captionMedium: "Gold climbed to a record on Tuesday.", hashtags: ["gold"] }
    }
  })
  return { workspaceId, jobId: sent.matched[0].postGroupId as string }
}
