import { beforeAll, describe, expect, it } from "vitest"
import { until } from "../delivery/HandOverDesk.js"
import { png } from "../support/MediaFiles.js"
import { useNode } from "../support/Rig.js"
import { upload } from "../support/Uploads.js"
import { addPackage, type Api, newList, packageOf, workspace } from "./QueueDesk.js"

let api: Api
let apiKey: string

const { node } = useNode({ label: "queues_media" })

beforeAll(async () => {
  const ws = await workspace(node, "Media")
  api = ws.api
  apiKey = ws.apiKey
})

const pictured = (fileId: string) => ({
  clipData: { headline: "Pictured", images: [{ url: `media://${fileId}`, alt: "A picture" }] }
})
const usesOf = async (fileId: string) => {
  const r = await api.get(`/v1/media/${fileId}/uses`)
  expect(r.status, r.text).toBe(200)
  return r.body.uses as Array<Record<string, unknown>>
}

describe("media files held by scheduled posts", () => {
  it("lists scheduled posts referring to a file among its uses, and a replacement repoints them", async () => {
    const sent = await upload(`${node.url}/v1/media`, apiKey, {
      bytes: png(64, 64),
      name: "chart.png",
      type: "image/png"
    })
    expect(sent.status, sent.text).toBe(201)
    const old = sent.body.file.id as string
    const list = await newList(api, "Pictures")
    const held = await addPackage(api, list.id, { title: "Holds it", data: pictured(old) })
    const cancelled = await addPackage(api, list.id, { title: "Let go", data: pictured(old) })
    await api.patch(`/v1/queues/${list.id}/packages/${cancelled.id}`, { state: "CANCELLED" })
    await addPackage(api, list.id, { title: "Elsewhere" })

    expect(await usesOf(old)).toEqual([{
      kind: "scheduledPost",
      queueId: list.id,
      queueName: "Pictures",
      packageId: held.id,
      title: "Holds it",
      scheduledFor: held.scheduledFor
    }])

    const replaced = await upload(`${node.url}/v1/media`, apiKey, {
      bytes: png(32, 32),
      name: "new.png",
      type: "image/png"
    }, {
      replaces: old
    })
    expect(replaced.status, replaced.text).toBe(201)
    const next = replaced.body.file.id as string
    expect(next).not.toBe(old)
    expect((await packageOf(api, list.id, held.id))!.data).toEqual(pictured(next))
    // Only a post still to fire is moved; a cancelled one keeps what it named.
    expect((await packageOf(api, list.id, cancelled.id))!.data).toEqual(pictured(old))
    expect((await usesOf(next)).map((u) => u["packageId"])).toEqual([held.id])
    expect((await api.get(`/v1/media/${old}/uses`)).status).toBe(404)

    // A fired post holds nothing any more.
    const quiet = await newList(api, "Fired pictures")
    const now = await addPackage(api, quiet.id, { title: "Fired", scheduledFor: "now", data: pictured(next) })
    await until("the post fired", () => packageOf(api, quiet.id, now.id), (p) => p?.state === "FIRED", 30_000)
    expect((await usesOf(next)).map((u) => u["packageId"])).toEqual([held.id])
  }, 60_000)
})
