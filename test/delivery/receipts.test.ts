import { PgClient } from "@effect/sql-pg"
import { layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { beforeAll, expect } from "vitest"
import { AppConfig } from "../../src/Config.js"
import { ReceiptLinks, receiptPath } from "../../src/delivery/handover/ReceiptLinks.js"
import { type Answer, call, type client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET, newEventId } from "../support/Routes.js"
import { testSettings } from "../support/ServiceLayer.js"
import { urlSigning } from "../support/Storage.js"

let api: ReturnType<typeof client>
let workspaceId: string
let channelId: string
let eventId: string

const DAY_MS = 24 * 3600 * 1000

/** A job and its post in `state`, written as the channel entity would have left them. */
// A SCHEDULED post is due tomorrow: due now, the node's hand-over would take it (PUBLISHING) while a test reads it.
const seedPost = async (state: string, title = "Copper slips") => {
  const due = state === "SCHEDULED" ? "now() + interval '1 day'" : "now()"
  const jobId = newEventId()
  const postId = newEventId()
  await query(
    db.url,
    `INSERT INTO jobs (id, workspace_id, ingest_event_id, channel_id, subscription_id, origin, status, template_id,
       ratio, locale, scheduled_for) VALUES ($1, $2, $3, $4, 'sub', 'custom', $5, $6, '9x16', 'en', ${due})`,
    [jobId, workspaceId, eventId, channelId, state, MARKET]
  )
  await query(
    db.url,
    `INSERT INTO posts (id, workspace_id, job_id, channel_id, platform, surface, locale, ratio, state, title, caption,
       scheduled_for, published_at) VALUES ($1, $2, $3, $4, 'youtube', 'youtube-shorts', 'en', '9x16', $5, $6, 'Down.',
       ${due}, CASE WHEN $5 = 'PUBLISHED' THEN now() END)`,
    [postId, workspaceId, jobId, channelId, state, title]
  )
  return postId
}

const { db, node } = useNode({ label: "receipts" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, ["brands:write", "channels:write", "posts:read"], "Receipts")
  api = ws.api
  workspaceId = ws.accountId
  expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const channel = await api.post("/v1/channels", { name: "Shorts <Main>", surface: "youtube-shorts", locale: "en" })
  expect(channel.status, channel.text).toBe(201)
  channelId = channel.body.channel.id
  eventId = newEventId()
  await query(
    db.url,
    `INSERT INTO ingest_events (id, workspace_id, event_id, body_hash, input, origin, details, status, occurred_at,
       data, request_id) VALUES ($1, $2, $1, 'x', 'stream', 'custom', 'Metals', 'ACCEPTED', now(), '{}', $1)`,
    [eventId, workspaceId]
  )
}, 120_000)

/** Receipt links made in-process the way hand-overs make them: the node's URL secret, its public address. */
const LinksLive = Layer.unwrapEffect(Effect.sync(() =>
  ReceiptLinks.layer.pipe(
    Layer.provide(PgClient.layer({ url: Redacted.make(db.url) })),
    Layer.provide(AppConfig.make({ ...testSettings(db.url, node.dataDir), publicBaseUrl: node.url }))
  )
))

const linkFor = (postId: string) => Effect.flatMap(ReceiptLinks, (links) => links.linkFor(postId))

const send = (method: "GET" | "POST", url: string, body?: unknown) =>
  Effect.promise(() => call(node.url, method, url.slice(node.url.length), body === undefined ? {} : { body }))

const postFields = (postId: string) =>
  Effect.promise(async () => {
    const r = await api.get(`/v1/posts?q=${postId}`)
    expect(r.status, r.text).toBe(200)
    const post = r.body.posts.find((p: { id: string }) => p.id === postId)
    return { platformPostId: post.platformPostId, permalink: post.permalink, state: post.state }
  })

const expectPage = (r: Answer) => {
  expect(r.status, r.text).toBe(200)
  expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8")
  expect(r.text).not.toMatch(/<script|<link|<img|<iframe|src=/i)
  return r.text
}

/** The page's form as a browser sends it: to its action, resolved against the page's address. */
const submitForm = (pageUrl: string, html: string, fields: Record<string, string>) =>
  Effect.promise(async () => {
    const action = /<form method="post" action="([^"]*)" enctype="([^"]*)"/.exec(html)
    expect(action).not.toBeNull()
    expect(action![2]).toBe("multipart/form-data")
    const target = new URL(action![1]!.replaceAll("&amp;", "&"), pageUrl)
    const form = new FormData()
    for (const [name, value] of Object.entries(fields)) form.append(name, value)
    const response = await fetch(target, { method: "POST", body: form })
    return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
  })

layer(LinksLive, { timeout: 60_000, excludeTestServices: true })("receipt URLs", (it) => {
  it.effect("a link names the post, is signed and holds 30 days", () =>
    Effect.gen(function*() {
      const postId = yield* Effect.promise(() => seedPost("PUBLISHED"))
      const link = yield* linkFor(postId)
      const url = new URL(link.url)
      expect(`${url.origin}${url.pathname}`).toBe(`${node.url}/v1/receipts/${postId}`)
      expect(url.searchParams.get("sig")).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(Number(url.searchParams.get("exp")) * 1000).toBe(Date.parse(link.expiresAt))
      expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(30 * DAY_MS - 60_000)
      expect(Date.parse(link.expiresAt) - Date.now()).toBeLessThanOrEqual(30 * DAY_MS)
    }))

  it.effect("GET shows the post (escaped), its channel, state and fields, and a form posting back signed", () =>
    Effect.gen(function*() {
      const postId = yield* Effect.promise(() => seedPost("PUBLISHED", `Copper <b>"slips"</b> & 'falls'`))
      const link = yield* linkFor(postId)
      const html = expectPage(yield* send("GET", link.url))
      expect(html).toContain("<h1>Copper &lt;b&gt;&quot;slips&quot;&lt;/b&gt; &amp; &#39;falls&#39;</h1>")
      expect(html).not.toContain("<b>")
      expect(html).toContain("Shorts &lt;Main&gt;")
      expect(html).toContain("PUBLISHED")
      expect(html).toContain(`name="permalink" type="url" required`)
      expect(html).toContain(`name="platformPostId"`)
      const exp = new URL(link.url).searchParams.get("exp")
      expect(html).toContain(`action="?exp=${exp}&amp;sig=`)
    }))

  it.effect("JSON sets permalink and platformPostId; the posts log shows them; a blank id keeps the recorded one", () =>
    Effect.gen(function*() {
      const postId = yield* Effect.promise(() => seedPost("PUBLISHED"))
      const link = yield* linkFor(postId)
      const r = yield* send("POST", link.url, { permalink: "https://youtube.com/shorts/abc", platformPostId: "abc" })
      expect(r.status, r.text).toBe(200)
      expect(r.body).toEqual({
        post: { id: postId, state: "PUBLISHED", platformPostId: "abc", permalink: "https://youtube.com/shorts/abc" }
      })
      expect(yield* postFields(postId)).toEqual({
        state: "PUBLISHED",
        platformPostId: "abc",
        permalink: "https://youtube.com/shorts/abc"
      })
      const corrected = yield* send("POST", link.url, { permalink: "https://youtu.be/abc", platformPostId: "" })
      expect(corrected.body.post).toMatchObject({ platformPostId: "abc", permalink: "https://youtu.be/abc" })
      const html = expectPage(yield* send("GET", link.url))
      expect(html).toContain(`<a href="https://youtu.be/abc" rel="noopener noreferrer">`)
    }))

  it.effect("the page's form records the receipt and answers with a page", () =>
    Effect.gen(function*() {
      const postId = yield* Effect.promise(() => seedPost("PUBLISHING"))
      const link = yield* linkFor(postId)
      const page = expectPage(yield* send("GET", link.url))
      const answer = yield* submitForm(link.url, page, {
        permalink: "https://www.tiktok.com/@desk/video/7",
        platformPostId: "7"
      })
      expect(answer.status, answer.text).toBe(200)
      expect(answer.type).toBe("text/html; charset=utf-8")
      expect(answer.text).toContain("Receipt recorded")
      expect(answer.text).toContain("https://www.tiktok.com/@desk/video/7")
      expect(yield* postFields(postId)).toMatchObject({
        platformPostId: "7",
        permalink: "https://www.tiktok.com/@desk/video/7"
      })
    }))

  it.effect("a form past the route's limits is 413 in the envelope, never a fault", () =>
    Effect.gen(function*() {
      const postId = yield* Effect.promise(() => seedPost("PUBLISHED"))
      const link = yield* linkFor(postId)
      const answer = yield* Effect.promise(async () => {
        const form = new FormData()
        form.append("permalink", "https://example.com/p/1")
        form.append("platformPostId", "x".repeat(20 * 1024))
        const response = await fetch(link.url.replace(/^https?:\/\/[^/]+/, node.url), { method: "POST", body: form })
        return { status: response.status, body: await response.json() as { error: { code: string } } }
      })
      expect(answer.status).toBe(413)
      expect(answer.body.error.code).toBe("payload_too_large")
      expect(yield* postFields(postId)).toMatchObject({ permalink: null })
    }))

  it.effect("a tampered, missing or other post's signature is 403 and changes nothing", () =>
    Effect.gen(function*() {
      const postId = yield* Effect.promise(() => seedPost("PUBLISHED"))
      const other = yield* Effect.promise(() => seedPost("PUBLISHED"))
      const link = new URL((yield* linkFor(postId)).url)
      const sig = link.searchParams.get("sig")!
      const tampered = new URL(link)
      tampered.searchParams.set("sig", (sig.startsWith("A") ? "B" : "A") + sig.slice(1))
      const unsigned = new URL(link)
      unsigned.search = ""
      const elsewhere = new URL(link)
      elsewhere.pathname = `/v1/receipts/${other}`
      for (const url of [tampered, unsigned, elsewhere]) {
        expectError(yield* send("GET", url.toString()), 403, "forbidden")
        expectError(yield* send("POST", url.toString(), { permalink: "https://x.test/1" }), 403, "forbidden")
      }
      expect(yield* postFields(postId)).toMatchObject({ platformPostId: null, permalink: null })
      expect(yield* postFields(other)).toMatchObject({ platformPostId: null, permalink: null })
    }))

  it.effect("an expired link is 403", () =>
    Effect.gen(function*() {
      const postId = yield* Effect.promise(() => seedPost("PUBLISHED"))
      const signing = yield* Effect.promise(() => urlSigning(db.url))
      const { exp, sig } = signing.sign(receiptPath(postId), new Date(Date.now() - 1000))
      const url = `${node.url}${receiptPath(postId)}?exp=${exp}&sig=${sig}`
      expectError(yield* send("GET", url), 403, "forbidden")
      expectError(yield* send("POST", url, { permalink: "https://x.test/1" }), 403, "forbidden")
    }))

  it.effect("a permalink that is not an absolute http(s) URL, or an id over 200 characters, is 400 naming it", () =>
    Effect.gen(function*() {
      const postId = yield* Effect.promise(() => seedPost("PUBLISHED"))
      const link = yield* linkFor(postId)
      for (const permalink of ["youtube.com/shorts/abc", "ftp://files.test/a", "javascript:alert(1)", "/shorts/abc"]) {
        const error = expectError(yield* send("POST", link.url, { permalink }), 400, "schema_validation")
        expect(error.details.map((d) => d.path)).toEqual(["/permalink"])
      }
      const missing = expectError(yield* send("POST", link.url, { platformPostId: "abc" }), 400, "schema_validation")
      expect(missing.details.map((d) => d.path)).toEqual(["/permalink"])
      const long = { permalink: "https://x.test/1", platformPostId: "x".repeat(201) }
      const error = expectError(yield* send("POST", link.url, long), 400, "schema_validation")
      expect(error.details.map((d) => d.path)).toEqual(["/platformPostId"])
      expect(yield* postFields(postId)).toMatchObject({ platformPostId: null, permalink: null })
    }))

  it.effect("a post not handed over takes no receipt: 409, and its page has no form", () =>
    Effect.gen(function*() {
      for (const state of ["SCHEDULED", "POST_FAILED", "DELETED"]) {
        const postId = yield* Effect.promise(() => seedPost(state))
        const link = yield* linkFor(postId)
        const error = expectError(
          yield* send("POST", link.url, { permalink: "https://x.test/1" }),
          409,
          "invalid_state_transition"
        )
        expect(error.message).toContain(state)
        const html = expectPage(yield* send("GET", link.url))
        expect(html).not.toContain("<form")
        expect(html).toContain(`This post is ${state}`)
        expect(yield* postFields(postId)).toMatchObject({ permalink: null })
      }
    }))

  it.effect("a link to a post that does not exist is 404", () =>
    Effect.gen(function*() {
      const link = yield* linkFor(newEventId())
      expectError(yield* send("GET", link.url), 404, "not_found")
      expectError(yield* send("POST", link.url, { permalink: "https://x.test/1" }), 404, "not_found")
    }))
})
