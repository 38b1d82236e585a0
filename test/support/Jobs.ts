import { expect } from "vitest"
import type { client } from "./Client.js"
import { query } from "./Database.js"
import { compactExample, MARKET } from "./Exports.js"
import { newEventId } from "./Routes.js"

/**
 * A subscription to the shipped index-close feed, whose events (origin manual) may say when their posts go out: the
 * way to keep a post SCHEDULED while a test looks at it, as hand-over takes a due one within a fraction of a second.
 */
export const INDEX_CLOSE = { kind: "BROADCAST", sourceSlug: "markets", formatSlug: "index-close" } as const

/** A brand, a market stream and one channel subscribed to it (compact variant); answers the stream's id. */
export const marketStreamWithChannel = async (api: ReturnType<typeof client>) => {
  await api.post("/v1/brands", { name: "House" })
  const stream = (await api.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
  const channel = (await api.post("/v1/channels", { name: "Main" })).body.channel
  const sub = await api.post(`/v1/channels/${channel.id}/subscriptions`, {
    kind: "STREAM",
    streamId: stream.id,
    templateVariant: "compact"
  })
  expect(sub.status, sub.text).toBe(201)
  return stream.id as string
}

/** Sends the market template's example to the stream now; answers its ingest event id. */
export const sendMarketEvent = async (api: ReturnType<typeof client>, streamId: string) => {
  const sent = await api.post("/v1/stream", {
    streamId,
    eventId: newEventId(),
    occurredAt: new Date().toISOString(),
    data: await compactExample(api)
  })
  expect(sent.status, sent.text).toBe(202)
  return sent.body.ingestEventId as string
}

export const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()

/** Sends `data` to the index-close feed as a manual event whose posts are due at `publishAt`; answers its 202. */
export const sendForLater = async (api: ReturnType<typeof client>, data: unknown, publishAt = inAnHour()) => {
  const r = await api.post("/v1/ingest/markets/index-close", {
    eventId: newEventId(),
    occurredAt: new Date().toISOString(),
    origin: "manual",
    publishAt,
    data
  })
  expect(r.status, r.text).toBe(202)
  expect(r.body.status, r.text).toBe("accepted")
  return r.body as { ingestEventId: string; matched: Array<{ channelId: string; postGroupId: string }> }
}

// A job still moves by itself while it renders and until hand-over is done with it: a SCHEDULED job is handed over
// once due, while one scheduled for later rests there.
const moving =
  `status IN ('ACCEPTED', 'AWAITING_RENDERING', 'PUBLISHING') OR (status = 'SCHEDULED' AND scheduled_for <= now())`

/**
 * Polls the jobs `where` selects until none moves by itself any more (rendered and, once due, PUBLISHED or
 * POST_FAILED); answers their rows oldest first.
 */
export const settledJobs = async <Job extends Record<string, unknown> = Record<string, unknown>>(
  databaseUrl: string,
  where: string,
  values: Array<unknown>,
  timeoutMs = 150_000
): Promise<Array<Job>> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const jobs = await query(
      databaseUrl,
      `SELECT *, (${moving}) AS moving FROM jobs WHERE ${where} ORDER BY created_at, id`,
      values
    )
    if (jobs.every((job) => job.moving !== true)) return jobs.map(({ moving: _moving, ...job }) => job as Job)
    if (Date.now() > deadline) {
      throw new Error(`jobs still moving after ${timeoutMs} ms: ${JSON.stringify(jobs.map((j) => [j.id, j.status]))}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

const RENDERING_STAGE = ["ACCEPTED", "AWAITING_RENDERING", "RENDERING", "DOWNLOADING"]

/**
 * Polls the one-job view (as a dashboard does) until every job has left the rendering stage, noting each state seen
 * on the way in `seen`.
 */
export const leftRenderingStage = async (
  api: ReturnType<typeof client>,
  jobIds: Array<string>,
  seen: Set<string>,
  timeoutMs = 150_000
) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const states = await Promise.all(jobIds.map(async (id) => {
      const r = await api.get(`/v1/pipeline/${id}`)
      expect(r.status, r.text).toBe(200)
      return r.body.job.state as string
    }))
    states.forEach((state) => seen.add(state))
    if (states.every((state) => !RENDERING_STAGE.includes(state))) return
    if (Date.now() > deadline) throw new Error(`jobs still rendering: ${states.join(", ")}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
