import { beforeAll, describe, expect, it } from "vitest"
import { admin, workspaceWithKey } from "../support/Client.js"
import { compactExample, MARKET, videoBody } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"

const BRIEFING = "tpl_8e2f60b9d14a"
const SCOREBOARD = "tpl_c51d0a7e3f92"

let operator: ReturnType<typeof admin>
let ws: Awaited<ReturnType<typeof workspaceWithKey>>
let other: Awaited<ReturnType<typeof workspaceWithKey>>
let example: Record<string, unknown>

const { node } = useNode({ label: "errors_clearance" })

beforeAll(async () => {
  operator = admin(node)
  ws = await workspaceWithKey(node, ["*"], "Restricted")
  other = await workspaceWithKey(node, ["*"], "Unrestricted")
  example = await compactExample(ws.api)
})

const clear = (accountId: string, templateIds: ReadonlyArray<string> | null) =>
  operator.put(`/admin/workspaces/${accountId}/templates`, { templateIds })

describe("PUT /admin/workspaces/{accountId}/templates", () => {
  it("restricts a workspace to the templates named, answers them in catalogue order, and null lifts it", async () => {
    const restricted = await clear(ws.accountId, [SCOREBOARD, BRIEFING, BRIEFING])
    expect(restricted.status, restricted.text).toBe(200)
    expect(restricted.body).toEqual({ templateIds: [BRIEFING, SCOREBOARD], restricted: true })

    const none = await clear(ws.accountId, [])
    expect(none.body).toEqual({ templateIds: [], restricted: true })

    const lifted = await clear(ws.accountId, null)
    expect(lifted.body.restricted).toBe(false)
    expect(lifted.body.templateIds).toEqual(expect.arrayContaining([MARKET, BRIEFING, SCOREBOARD]))
  })

  it("refuses an unknown template at its index and an unknown workspace, changing nothing", async () => {
    const unknown = expectError(await clear(ws.accountId, [MARKET, "tpl_000000000000"]), 400, "schema_validation")
    expect(unknown.details.map((d) => d.path)).toEqual(["/templateIds/1"])
    expectError(await clear("01ARZ3NDEKTSV4RRFFQ69G5FAV", [MARKET]), 404, "not_found")
    expectError(await operator.put(`/admin/workspaces/${ws.accountId}/templates`, {}), 400, "schema_validation")
    // Still unrestricted: an export of the market template is accepted.
    const started = await ws.api.post("/v1/direct-export/video", videoBody(example))
    expect(started.status, started.text).toBe(202)
  })
})

describe("template_not_approved", () => {
  it("a direct export, batch or keyframes naming a template not cleared is 409 at /templateId, nothing started", async () => {
    const fresh = await workspaceWithKey(node, ["*"], "Cleared for the briefing only")
    expect((await clear(fresh.accountId, [BRIEFING])).status).toBe(200)

    const video = expectError(
      await fresh.api.post("/v1/direct-export/video", videoBody(example)),
      409,
      "template_not_approved"
    )
    expect(video.details).toEqual([expect.objectContaining({ path: "/templateId" })])
    expect(video.message).toContain(MARKET)

    const batch = await fresh.api.post("/v1/direct-export/batch", videoBody(example, { ratios: ["1x1", "9x16"] }))
    expectError(batch, 409, "template_not_approved")

    const frames = await fresh.api.post(
      "/v1/direct-export/keyframes",
      videoBody(example, { frames: [{ name: "first", frame: 0 }] })
    )
    expectError(frames, 409, "template_not_approved")

    expect((await fresh.api.get("/v1/direct-export/queue")).body.exports).toEqual([])
    expect((await fresh.api.get("/v1/renders/quota")).body.quota.used).toBe(0)
  })

  it("a stream, a feed subscription or a post list's post naming a template not cleared is 409 too, nothing stored", async () => {
    const fresh = await workspaceWithKey(node, ["*"], "Cleared for nothing")
    await fresh.api.post("/v1/brands", { name: "House" })
    expect((await clear(fresh.accountId, [])).status).toBe(200)

    const stream = expectError(
      await fresh.api.post("/v1/streams", { name: "Prices", templateId: MARKET }),
      409,
      "template_not_approved"
    )
    expect(stream.details).toEqual([expect.objectContaining({ path: "/templateId" })])
    expect((await fresh.api.get("/v1/streams")).body.streams).toEqual([])

    const channel = (await fresh.api.post("/v1/channels", { name: "Shorts" })).body.channel
    const feed = await fresh.api.post(`/v1/channels/${channel.id}/subscriptions`, {
      kind: "BROADCAST",
      sourceSlug: "markets",
      formatSlug: "index-close"
    })
    expect(expectError(feed, 409, "template_not_approved").details).toEqual([
      expect.objectContaining({ path: "/formatSlug" })
    ])
    expect((await fresh.api.get("/v1/channels")).body.channels[0].subscriptions).toEqual([])

    const list = (await fresh.api.post("/v1/queues", { name: "Morning" })).body.queue
    const post = await fresh.api.post(`/v1/queues/${list.id}/packages`, {
      title: "Open",
      templateId: MARKET,
      scheduledFor: "now",
      data: example
    })
    expect(expectError(post, 409, "template_not_approved").details).toEqual([
      expect.objectContaining({ path: "/templateId" })
    ])
    expect((await fresh.api.get("/v1/queues")).body.queues[0].posts).toEqual([])
  })

  it("an unknown template is still 404 unknown_template, not 409", async () => {
    const r = await ws.api.post("/v1/direct-export/video", videoBody(example, { templateId: "tpl_000000000000" }))
    expectError(r, 404, "unknown_template")
  })

  it("another workspace is not touched by the restriction", async () => {
    const r = await other.api.post("/v1/direct-export/video", videoBody(example))
    expect(r.status, r.text).toBe(202)
  })

  it("clearing the template again lets the export start", async () => {
    expect((await clear(ws.accountId, [BRIEFING, MARKET])).status).toBe(200)
    const r = await ws.api.post("/v1/direct-export/video", videoBody(example))
    expect(r.status, r.text).toBe(202)
  })
})
