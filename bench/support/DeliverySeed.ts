import { query } from "../../test/support/Database.js"

/**
 * Gives every handed-over post of a seeded workspace (see ConsoleSeed.ts) the webhook delivery the hand-over would
 * have made for it: the published ones DELIVERED at the first attempt, the failed ones DEAD after three attempts
 * answered 500. Each carries its post, a JSON body of the post's facts and signed-looking headers, so the log and a
 * delivery's page read what they read in a real workspace. Answers the id of one dead delivery.
 */
export const seedDeliveries = async (dbUrl: string, workspaceId: string) => {
  const dead = `p.state = 'POST_FAILED'`
  await query(
    dbUrl,
    `
    INSERT INTO deliveries (id, workspace_id, owner, via, event, state, attempt, last_status_code, last_error,
      delivered_at, body, headers, created_at, updated_at)
    SELECT '01JE' || substr(p.id, 5), p.workspace_id, 'bench', 'webhook', 'post.publish',
      CASE WHEN ${dead} THEN 'DEAD' ELSE 'DELIVERED' END, CASE WHEN ${dead} THEN 3 ELSE 1 END,
      CASE WHEN ${dead} THEN 500 ELSE 200 END, CASE WHEN ${dead} THEN 'The receiver answered 500.' END,
      CASE WHEN ${dead} THEN NULL ELSE p.created_at END,
      convert_to(json_build_object('type', 'post.publish', 'timestamp', p.created_at, 'data', json_build_object(
        'accountId', p.workspace_id, 'posts', json_build_array(json_build_object('id', p.id, 'title', p.title,
        'caption', p.caption, 'hashtags', p.hashtags, 'platform', p.platform, 'surface', p.surface)))
      )::text, 'UTF8'),
      jsonb_build_object('content-type', 'application/json', 'webhook-id', '01JE' || substr(p.id, 5),
        'webhook-timestamp', extract(epoch FROM p.created_at)::bigint::text,
        'webhook-signature', 'v1,' || encode(sha256(convert_to(p.id, 'UTF8')), 'base64')),
      p.created_at, p.created_at
    FROM posts p
    WHERE p.workspace_id = $1 AND p.state IN ('PUBLISHED', 'POST_FAILED') AND p.id LIKE '01JB%'`,
    [workspaceId]
  )
  await query(
    dbUrl,
    `
    INSERT INTO delivery_posts (delivery_id, post_id, position, via, event)
    SELECT '01JE' || substr(p.id, 5), p.id, 0, 'webhook', 'post.publish' FROM posts p
    WHERE p.workspace_id = $1 AND p.state IN ('PUBLISHED', 'POST_FAILED') AND p.id LIKE '01JB%'`,
    [workspaceId]
  )
  await query(
    dbUrl,
    `
    INSERT INTO delivery_attempts (delivery_id, attempt, redelivery, started_at, duration_ms, status_code, error,
      answer, headers)
    SELECT d.id, n, false, d.created_at + make_interval(secs => n * 5), 40 + n, d.last_status_code, d.last_error,
      CASE WHEN d.state = 'DEAD' THEN '{"error":"down for maintenance"}' ELSE '{"ok":true}' END, d.headers
    FROM deliveries d, generate_series(1, d.attempt) AS n
    WHERE d.workspace_id = $1 AND d.owner = 'bench' AND d.id LIKE '01JE%'`,
    [workspaceId]
  )
  await query(dbUrl, "ANALYZE deliveries, delivery_posts, delivery_attempts")
  const [one] = await query(
    dbUrl,
    "SELECT id FROM deliveries WHERE workspace_id = $1 AND id LIKE '01JE%' AND state = 'DEAD' ORDER BY id LIMIT 1",
    [workspaceId]
  )
  if (one === undefined) throw new Error("no dead delivery was seeded")
  return { deadId: one["id"] as string }
}
