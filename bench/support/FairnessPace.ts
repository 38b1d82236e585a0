import type { BenchDatabase } from "./PipelineSetup.js"

/**
 * The renderers' pace over the renders of these workspaces since `since`, measured while the flood (the renders of
 * `floodWorkspaceId`) still waited for slots: from the first render's start until the flood's last render was handed
 * a slot. In that window every slot had work in either order, so what it drew (each render counted by the share of
 * its drawing inside the window, so no render half drawn at its edges moves the figure by a whole video) is the
 * renderers' throughput; the tail after it (the last videos drawn with slots idle for lack of work, and in arrival
 * order B's later posts drawn alone after the flood) is not. Also the whole span's pace, the median drawing time,
 * how many drew at once over the span, and the slots' busy share in the window: where a slower pace comes from,
 * renders drawn slower (the CPU shared with other work) or slots left idle between renders.
 */
export const renderPace = async (
  db: BenchDatabase,
  workspaceIds: ReadonlyArray<string>,
  floodWorkspaceId: string,
  since: Date
) => {
  const [row] = await db.rows<{
    n: number
    first: number
    last: number
    window_end: number
    videos_in_window: number | null
    median: number
    drawing: number
    drawing_in_window: number | null
    slots: number
  }>(
    `WITH r AS (SELECT workspace_id, started_at, finished_at FROM render_jobs
                 WHERE workspace_id = ANY($1) AND state = 'COMPLETED' AND submitted_at >= $2),
          w AS (SELECT (SELECT min(started_at) FROM r) AS first,
                       (SELECT max(started_at) FROM r WHERE workspace_id = $3) AS last),
          o AS (SELECT r.*, extract(epoch FROM finished_at - started_at) AS drew,
                       greatest(0, extract(epoch FROM least(finished_at, w.last) - greatest(started_at, w.first)))
                         AS inside
                  FROM r, w)
     SELECT count(*)::int AS n,
            (extract(epoch FROM min(started_at)) * 1000)::float8 AS first,
            (extract(epoch FROM max(finished_at)) * 1000)::float8 AS last,
            (extract(epoch FROM (SELECT last FROM w)) * 1000)::float8 AS window_end,
            sum(inside / nullif(drew, 0))::float8 AS videos_in_window,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY drew) * 1000)::float8 AS median,
            (sum(drew) * 1000)::float8 AS drawing,
            (sum(inside) * 1000)::float8 AS drawing_in_window,
            (SELECT coalesce(sum(slots), 0)::int FROM render_capacity) AS slots
       FROM o`,
    [workspaceIds, since, floodWorkspaceId]
  )
  const spanMs = row!.last - row!.first
  const windowMs = row!.window_end - row!.first
  return {
    videos: row!.n,
    perMinute: spanMs > 0 ? row!.n / (spanMs / 60_000) : 0,
    perMinuteWhileWaiting: windowMs > 0 ? (row!.videos_in_window ?? 0) / (windowMs / 60_000) : 0,
    medianRenderMs: row!.median,
    drawingAtOnce: spanMs > 0 ? row!.drawing / spanMs : 0,
    busyWhileWaiting: windowMs > 0 && row!.slots > 0 ? (row!.drawing_in_window ?? 0) / (windowMs * row!.slots) : 0
  }
}

export type RenderPace = Awaited<ReturnType<typeof renderPace>>
