import pg from "pg"
import { call } from "./Common.js"

const MARKET = "tpl_3a7c91e04b5d"

export interface IngestTarget {
  readonly key: string
  readonly streamId: string
  readonly channelIds: ReadonlyArray<string>
}

/**
 * What an integrator sets up before sending, through the admin and public APIs: a workspace and a key, a brand, one
 * stream on the Market move template with an empty field map, and two channels, each subscribed to the stream.
 */
export const prepareClipwright = async (node: { url: string; adminToken: string }): Promise<IngestTarget> => {
  const admin = node.adminToken
  const workspace = (await call(`${node.url}/admin/workspaces`, "POST", admin, { name: "Ingest bench" })).json
  const key: string = (await call(`${node.url}/admin/workspaces/${workspace.accountId}/keys`, "POST", admin, {
    scopes: ["streams:write", "channels:write", "channels:read", "brands:write", "ingest:write", "received:read"],
    name: "ingest bench"
  })).json.apiKey
  await call(`${node.url}/v1/brands`, "POST", key, { name: "House" })
  const { stream } =
    (await call(`${node.url}/v1/streams`, "POST", key, { name: "Bench prices", templateId: MARKET })).json
  const channelIds: Array<string> = []
  for (const name of ["Bench reels", "Bench square"]) {
    const { channel } = (await call(`${node.url}/v1/channels`, "POST", key, { name })).json
    await call(`${node.url}/v1/channels/${channel.id}/subscriptions`, "POST", key, {
      kind: "STREAM",
      streamId: stream.id
    })
    channelIds.push(channel.id)
  }
  return { key, streamId: stream.id, channelIds }
}

/** A Market move document that validates with an empty field map (the template's own sample, without locales). */
const data = {
  clipData: {
    headline: "European stocks close higher as energy rallies",
    subline: "Brent crude tops $84 after supply cuts; banks trail the broader market",
    figures: [
      { label: "STOXX 600", value: 512.37, unit: "pts", direction: "up" },
      { label: "Brent crude", value: 84.12, unit: "USD", direction: "up" },
      { label: "EUR/USD", value: 1.0843, direction: "down" }
    ],
    bullets: ["Energy leads with a 2.1% gain", "Banks slip on rate-cut bets", "Volumes 8% below average"],
    source: "Exchange data, 17:35 CET"
  },
  metaData: {
    title: "European stocks close higher",
    captionShort: "STOXX 600 up as energy rallies.",
    hashtags: ["markets", "stocks", "energy"]
  }
}

/** The body of one `POST /v1/stream` for this stream, builder of a fresh event per eventId. */
export const marketEvent = (streamId: string) => (eventId: string) =>
  JSON.stringify({ streamId, eventId, occurredAt: new Date().toISOString(), locale: "en", data })

/** What the database holds after a run: events, jobs, and eventIds stored more than once. */
export const countLanded = async (databaseUrl: string) => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const count = async (text: string) => Number((await client.query<{ n: string }>(text)).rows[0]?.n ?? NaN)
    return {
      events: await count("SELECT count(*) AS n FROM ingest_events"),
      jobs: await count("SELECT count(*) AS n FROM jobs"),
      repeatedEventIds: await count(
        "SELECT count(*) AS n FROM (SELECT event_id FROM ingest_events GROUP BY event_id HAVING count(*) > 1) repeated"
      )
    }
  } finally {
    await client.end()
  }
}
