import { ulid } from "ulid"
import { call } from "./Common.js"

const MARKET = "tpl_3a7c91e04b5d"

type Node = { readonly url: string; readonly adminToken: string }

export interface FaultsWorkspace {
  readonly workspaceId: string
  /** The webhook's `whsec_…` secret, for the receiver to verify what it gets. */
  readonly webhookSecret: string
  readonly key: string
  readonly streamId: string
  readonly queueId: string
}

/** The shipped feed the mix's feed events go to (the markets source's index close). */
export const FEED = { sourceSlug: "markets", formatSlug: "index-close" }

const channel = async (
  node: Node,
  key: string,
  body: Record<string, unknown>,
  subscription: Record<string, unknown>
) => {
  const made = (await call(`${node.url}/v1/channels`, "POST", key, { surface: "youtube-shorts", ...body })).json.channel
  await call(`${node.url}/v1/channels/${made.id}/subscriptions`, "POST", key, subscription)
}

/**
 * Through the API: a workspace whose webhook is the receiver (owner email, so email hand-over has someone to go to), a
 * stream feeding two channels of one shape (one video per event): one by webhook and email, one by webhook with
 * approval; a post list whose channel hands over by webhook; and a channel listening to a shipped feed.
 */
export const prepareFaults = async (node: Node, webhookUrl: string): Promise<FaultsWorkspace> => {
  const admin = node.adminToken
  const workspaceId: string = (await call(`${node.url}/admin/workspaces`, "POST", admin, {
    name: "Fault matrix",
    ownerEmail: "owner@example.test"
  })).json.accountId
  const webhookSecret: string =
    (await call(`${node.url}/admin/workspaces/${workspaceId}/webhook`, "PUT", admin, { url: webhookUrl })).json.secret
  const key: string =
    (await call(`${node.url}/admin/workspaces/${workspaceId}/keys`, "POST", admin, { scopes: ["*"] })).json.apiKey
  await call(`${node.url}/v1/brands`, "POST", key, { name: "House" })
  const streamId: string =
    (await call(`${node.url}/v1/streams`, "POST", key, { name: "Prices", templateId: MARKET })).json.stream.id
  const stream = { kind: "STREAM", streamId, templateVariant: "compact" }
  await channel(node, key, { name: "Shorts", deliverByWebhook: true, deliverByEmail: true }, stream)
  await channel(
    node,
    key,
    { name: "Reviewed", approval: "PER_POST", deliverByWebhook: true, deliverByEmail: false },
    stream
  )
  const queueId: string = (await call(`${node.url}/v1/queues`, "POST", key, { name: "Evening list" })).json.queue.id
  await channel(node, key, { name: "List shorts", deliverByWebhook: true, deliverByEmail: false }, {
    kind: "QUEUE",
    queueId
  })
  await channel(node, key, { name: "Index close", deliverByWebhook: true, deliverByEmail: false }, {
    kind: "BROADCAST",
    ...FEED,
    templateVariant: "compact"
  })
  return { workspaceId, webhookSecret, key, streamId, queueId }
}

export interface MixPlan {
  readonly eventEveryMs: number
  readonly packageEveryMs: number
  readonly exportEveryMs: number
  readonly feedEveryMs: number
  /** Every how many events a new video is asked for (the others repeat one already drawn): renders stay below capacity. */
  readonly newVideoEvery: number
  /** How far ahead of now a package is due. */
  readonly packageLeadMs: number
}

const send = async (url: string, method: string, key: string, body?: unknown) => {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000)
  })
  const text = await response.text()
  return { status: response.status, json: text === "" ? undefined : JSON.parse(text) as any }
}

// An event's words decide its video: a new one every `newVideoEvery` events keeps renders in flight all the time.
const eventContent = (i: number) => ({
  clipData: { headline: `Gold climbs for a ${i + 1}. session`, subline: `Bullion tops $${2400 + i}` },
  metaData: { title: `Gold, session ${i + 1}`, captionShort: "Gold climbs.", hashtags: ["gold"] }
})

// Every fifth feed event asks for a new video; the others repeat one already drawn.
const feedContent = (i: number) => ({
  clipData: {
    headline: "European stocks close higher",
    figures: [{ label: "STOXX 600", value: 500 + Math.floor(i / 5), unit: "pts", direction: "up" }]
  }
})

const packageContent = {
  clipData: { headline: "Gold closes the week higher", subline: "Bullion at $2,410" },
  metaData: { title: "Gold, the week", captionMedium: "Gold closed the week higher.", hashtags: ["gold"] }
}

const exportBody = {
  templateId: MARKET,
  variant: "compact",
  version: "1.0.1",
  ratio: "1x1",
  data: { clipData: { headline: "Silver steady", subline: "Silver at $29" } }
}

/**
 * The steady mix while faults come and go: stream events, post-list packages due shortly, now and then a direct
 * export, and a loop approving whatever waits for approval. Each request goes to the next live node and, failing
 * there (a node just killed), to the one after. Keeps the time of every 202 and the ingest event ids it answered.
 */
export const startMix = (ws: FaultsWorkspace, liveNodes: () => ReadonlyArray<Node>, plan: MixPlan) => {
  const accepted: Array<{ at: number; ingestEventId: string }> = []
  const refused: Array<{ at: number; what: string }> = []
  let turn = 0
  let sent = 0
  let fed = 0

  let stopped = false
  const onSomeNode = async (what: string, path: string, method: string, body?: unknown) => {
    const nodes = liveNodes()
    const failures: Array<string> = []
    for (let tries = 0; tries < nodes.length && !stopped; tries++) {
      const node = nodes[turn++ % nodes.length]!
      try {
        return await send(`${node.url}${path}`, method, ws.key, body)
      } catch (error) {
        // that node is gone or frozen; the next one
        failures.push(error instanceof Error ? error.name : String(error))
      }
    }
    // Requests still in flight when the mix stops meet nodes being shut down: not the service's refusals.
    if (!stopped) refused.push({ at: Date.now(), what: `${what}: no node answered (${failures.join(", ")})` })
    return undefined
  }

  const event = async () => {
    const i = sent++
    const answer = await onSomeNode("event", "/v1/stream", "POST", {
      streamId: ws.streamId,
      eventId: ulid(),
      occurredAt: new Date().toISOString(),
      data: eventContent(Math.floor(i / plan.newVideoEvery))
    })
    // A send that timed out on one node and was repeated on the next is answered 200 `duplicate` with the same event.
    if (answer?.status === 202 || answer?.json?.idempotent === true) {
      accepted.push({ at: Date.now(), ingestEventId: answer!.json.ingestEventId })
    } else if (answer !== undefined) {
      refused.push({ at: Date.now(), what: `event: ${answer.status} ${JSON.stringify(answer.json)}` })
    }
  }
  const feedEvent = async () => {
    const i = fed++
    const answer = await onSomeNode("feed event", `/v1/ingest/${FEED.sourceSlug}/${FEED.formatSlug}`, "POST", {
      eventId: ulid(),
      occurredAt: new Date().toISOString(),
      data: feedContent(i)
    })
    // A feed answers 202 also to a repeat (a send that timed out on one node and was repeated on the next).
    if (answer?.status === 202) accepted.push({ at: Date.now(), ingestEventId: answer.json.ingestEventId })
    else if (answer !== undefined) {
      refused.push({ at: Date.now(), what: `feed event: ${answer.status} ${JSON.stringify(answer.json)}` })
    }
  }
  const pack = async () => {
    const answer = await onSomeNode("package", `/v1/queues/${ws.queueId}/packages`, "POST", {
      title: "Gold, the week",
      templateId: MARKET,
      templateVariant: "compact",
      scheduledFor: new Date(Date.now() + plan.packageLeadMs).toISOString(),
      data: packageContent
    })
    if (answer !== undefined && answer.status !== 201) {
      refused.push({ at: Date.now(), what: `package: ${answer.status}` })
    }
  }
  const exported = async () => {
    const answer = await onSomeNode("export", "/v1/direct-export/video", "POST", exportBody)
    if (answer !== undefined && answer.status >= 300) refused.push({ at: Date.now(), what: `export: ${answer.status}` })
  }
  const approve = async () => {
    const list = await onSomeNode("approvals", "/v1/approvals?state=PENDING", "GET")
    const pending = (list?.json?.approvals ?? []) as Array<{ id: string }>
    for (const approval of pending) {
      await onSomeNode("approve", `/v1/approvals/${approval.id}`, "POST", { state: "APPROVED" })
    }
  }

  let approving = false
  const timers = [
    setInterval(() => void event(), plan.eventEveryMs),
    setInterval(() => void feedEvent(), plan.feedEveryMs),
    setInterval(() => void pack(), plan.packageEveryMs),
    setInterval(() => void exported(), plan.exportEveryMs),
    setInterval(() => {
      if (approving) return
      approving = true
      void approve().finally(() => (approving = false))
    }, 1000)
  ]
  return {
    accepted,
    refused,
    /** Events accepted per second between `from` and `to`. */
    rate: (from: number, to: number) =>
      accepted.filter((a) => a.at >= from && a.at < to).length * 1000 / Math.max(1, to - from),
    stop: () => {
      stopped = true
      timers.forEach(clearInterval)
    }
  }
}
export type Mix = ReturnType<typeof startMix>
