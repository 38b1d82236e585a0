import { beforeAll, describe, expect, it } from "vitest"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET, ULID } from "../support/Routes.js"
import {
  addPackage,
  type Api,
  content,
  inSeconds,
  listOf,
  newList,
  packageBody,
  packageOf,
  pathsOf,
  workspace
} from "./QueueDesk.js"

let api: Api
let queueId: string

const { node } = useNode({ label: "queues_packages" })

beforeAll(async () => {
  api = (await workspace(node, "Packages")).api
  queueId = (await newList(api, "Rules")).id
})

const create = (overrides: Record<string, unknown>) =>
  api.post(`/v1/queues/${queueId}/packages`, packageBody(overrides))
const without = (key: string) => {
  const body: Record<string, unknown> = packageBody()
  delete body[key]
  return api.post(`/v1/queues/${queueId}/packages`, body)
}
const refused = async (
  r: Promise<Awaited<ReturnType<Api["post"]>>>,
  status: number,
  code: string,
  paths: Array<string>
) => {
  const answer = await r
  expectError(answer, status, code)
  expect(pathsOf(answer), answer.text).toEqual(paths)
}

describe("scheduling a post", () => {
  it("stores the post as sent, defaults filled in, and answers it in the package shape (201 { package })", async () => {
    const at = inSeconds(7200)
    const r = await api.post(`/v1/queues/${queueId}/packages`, {
      title: "Close",
      templateId: MARKET,
      scheduledFor: at,
      data: { ...content, locales: { fr: { clipData: { headline: "L'or atteint un record" } } } }
    })
    expect(r.status, r.text).toBe(201)
    expect(r.body.package).toEqual({
      id: expect.stringMatching(ULID),
      title: "Close",
      templateId: MARKET,
      templateVariant: "standard",
      templateVersion: null,
      data: { ...content, locales: { fr: { clipData: { headline: "L'or atteint un record" } } } },
      locales: null,
      scheduledFor: at,
      state: "SCHEDULED",
      firedAt: null,
      ingestEventId: null,
      error: null,
      outcome: null
    })
    expect(await packageOf(api, queueId, r.body.package.id)).toEqual(r.body.package)
  })

  it("stores `latest` and an absent version as null, and keeps an exact one", async () => {
    expect((await addPackage(api, queueId, { templateVersion: "latest" })).templateVersion).toBeNull()
    expect((await addPackage(api, queueId, { templateVersion: null })).templateVersion).toBeNull()
    expect((await addPackage(api, queueId, { templateVersion: "1.0.1" })).templateVersion).toBe("1.0.1")
  })

  it("refuses titles outside 1 to 120 characters at /title", async () => {
    await refused(create({ title: "" }), 400, "schema_validation", ["/title"])
    await refused(create({ title: "t".repeat(121) }), 400, "schema_validation", ["/title"])
    await refused(without("title"), 400, "schema_validation", ["/title"])
    expect((await create({ title: "t".repeat(120) })).status).toBe(201)
  })

  it("refuses an unknown template, variant or build (404 unknown_template) and a version that is not exact (400)", async () => {
    await refused(create({ templateId: "tpl_000000000000" }), 404, "unknown_template", ["/templateId"])
    await refused(without("templateId"), 400, "schema_validation", ["/templateId"])
    await refused(create({ templateVariant: "huge" }), 404, "unknown_template", ["/templateVariant"])
    await refused(create({ templateVersion: "9.9.9" }), 404, "unknown_template", ["/templateVersion"])
    // 1.1.0 is a build of the standard variant only.
    await refused(create({ templateVersion: "1.1.0" }), 404, "unknown_template", ["/templateVersion"])
    await refused(create({ templateVersion: "1.0" }), 400, "schema_validation", ["/templateVersion"])
  })

  it("takes an ISO instant or `now`; more than one minute in the past is 400 at /scheduledFor", async () => {
    await refused(create({ scheduledFor: inSeconds(-120) }), 400, "schema_validation", ["/scheduledFor"])
    await refused(create({ scheduledFor: "tomorrow" }), 400, "schema_validation", ["/scheduledFor"])
    await refused(create({ scheduledFor: "2026-11-23T08:30:00" }), 400, "schema_validation", ["/scheduledFor"])
    await refused(without("scheduledFor"), 400, "schema_validation", ["/scheduledFor"])
    const late = await addPackage(api, queueId, { scheduledFor: inSeconds(-30), title: "Just late" })
    expect(late.state === "SCHEDULED" || late.state === "FIRED").toBe(true)
    const before = Date.now()
    const now = await addPackage(api, queueId, { scheduledFor: "now", title: "Now" })
    expect(Date.parse(now.scheduledFor)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(now.scheduledFor)).toBeLessThanOrEqual(Date.now())
  })

  it("checks the data against the build it would draw with, each problem at its path under /data", async () => {
    await refused(without("data"), 400, "schema_validation", ["/data"])
    await refused(create({ data: { metaData: { title: "No clip" } } }), 400, "schema_validation", ["/data/clipData"])
    await refused(create({ data: { clipData: { headline: "h".repeat(200) }, extra: 1 } }), 400, "schema_validation", [
      "/data/clipData/headline",
      "/data/extra"
    ])
    // The standard variant's newest build takes bullet points, its first build and the compact variant none: the same
    // data fits one build and not another.
    const bulleted = { clipData: { headline: "Listed", bullets: ["One"] } }
    expect((await create({ data: bulleted, templateVariant: null })).status).toBe(201)
    await refused(create({ data: bulleted }), 400, "schema_validation", ["/data/clipData/bullets"])
    await refused(
      create({ data: bulleted, templateVariant: "standard", templateVersion: "1.0.0" }),
      400,
      "schema_validation",
      ["/data/clipData/bullets"]
    )
    await refused(
      create({ data: { clipData: { headline: "Copy" }, locales: { fr: { clipData: { subline: 4 } }, xx: {} } } }),
      400,
      "schema_validation",
      ["/data/locales/fr/clipData/subline", "/data/locales/xx"]
    )
  })

  it("answers 404 for a list that is not the workspace's", async () => {
    const other = await workspace(node, "Strangers")
    const r = await other.api.post(`/v1/queues/${queueId}/packages`, packageBody())
    expectError(r, 404, "not_found")
  })
})

describe("changing a scheduled post", () => {
  it("changes title, time, template choice and data, checking the result; orders posts by time", async () => {
    const list = await newList(api, "Edits")
    const later = await addPackage(api, list.id, { title: "Later", scheduledFor: inSeconds(7200) })
    const sooner = await addPackage(api, list.id, { title: "Sooner", scheduledFor: inSeconds(3600) })
    expect((await listOf(api, list.id))!.posts.map((p: { title: string }) => p.title)).toEqual(["Sooner", "Later"])
    const at = inSeconds(1800)
    const moved = await api.patch(`/v1/queues/${list.id}/packages/${later.id}`, { scheduledFor: at, title: "Earliest" })
    expect(moved.status, moved.text).toBe(200)
    expect(moved.body.package).toMatchObject({ id: later.id, title: "Earliest", scheduledFor: at, state: "SCHEDULED" })
    expect((await listOf(api, list.id))!.posts.map((p: { id: string }) => p.id)).toEqual([later.id, sooner.id])

    const pinned = await api.patch(`/v1/queues/${list.id}/packages/${sooner.id}`, { templateVersion: "1.0.0" })
    expect(pinned.body.package).toMatchObject({ templateVariant: "compact", templateVersion: "1.0.0" })
    const bulleted = await api.patch(`/v1/queues/${list.id}/packages/${sooner.id}`, {
      templateVariant: "standard",
      templateVersion: "latest",
      data: { clipData: { headline: "Listed", bullets: ["One"] } }
    })
    expect(bulleted.status, bulleted.text).toBe(200)
    expect(bulleted.body.package).toMatchObject({ templateVariant: "standard", templateVersion: null })
    // A new build choice is checked against the data kept: the first standard build draws no bullet points.
    await refused(
      api.patch(`/v1/queues/${list.id}/packages/${sooner.id}`, { templateVersion: "1.0.0" }),
      400,
      "schema_validation",
      ["/data/clipData/bullets"]
    )
    // A new time is checked with the content, and against the clock.
    await refused(
      api.patch(`/v1/queues/${list.id}/packages/${sooner.id}`, {
        scheduledFor: inSeconds(600),
        data: { clipData: {} }
      }),
      400,
      "schema_validation",
      ["/data/clipData/headline"]
    )
    await refused(
      api.patch(`/v1/queues/${list.id}/packages/${sooner.id}`, { scheduledFor: inSeconds(-300) }),
      400,
      "schema_validation",
      ["/scheduledFor"]
    )
    await refused(api.patch(`/v1/queues/${list.id}/packages/${sooner.id}`, { title: "" }), 400, "schema_validation", [
      "/title"
    ])
    await refused(
      api.patch(`/v1/queues/${list.id}/packages/${sooner.id}`, { state: "FIRED" }),
      400,
      "schema_validation",
      ["/state"]
    )
    const kept = await packageOf(api, list.id, sooner.id)
    expect(kept).toMatchObject({ templateVariant: "standard", templateVersion: null, state: "SCHEDULED" })
  })

  it("cancels a post; a cancelled post cannot change (409 invalid_state_transition); delete removes a post", async () => {
    const list = await newList(api, "Cancels")
    const post = await addPackage(api, list.id)
    const cancelled = await api.patch(`/v1/queues/${list.id}/packages/${post.id}`, { state: "CANCELLED" })
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body.package).toMatchObject({ state: "CANCELLED", firedAt: null, outcome: null })
    expectError(
      await api.patch(`/v1/queues/${list.id}/packages/${post.id}`, { title: "Again" }),
      409,
      "invalid_state_transition"
    )
    const removed = await api.post(`/v1/queues/${list.id}/packages/${post.id}/delete`)
    expect(removed.status, removed.text).toBe(200)
    expect(await packageOf(api, list.id, post.id)).toBeUndefined()
    expectError(await api.post(`/v1/queues/${list.id}/packages/${post.id}/delete`), 404, "not_found")
    expectError(await api.patch(`/v1/queues/${list.id}/packages/${post.id}`, { title: "Gone" }), 404, "not_found")
  })
})
