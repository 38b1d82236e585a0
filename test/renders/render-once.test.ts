import { beforeAll, describe, expect, it } from "vitest"
import { type Desk, openDesk, until } from "../delivery/HandOverDesk.js"
import { useNode } from "../support/Rig.js"

let desk: Desk

const { node } = useNode({ label: "render_once" })

beforeAll(async () => {
  desk = await openDesk(node, { name: "Render once" })
})

const sameVideo = {
  clipData: { headline: "Copper slips", subline: "Copper at $4.10" },
  metaData: { title: "Copper", captionShort: "Copper slips.", hashtags: ["copper"] }
}

describe("render once under concurrent asks", () => {
  // Every job of every event asks for the same video at about the same time: all must share the one render.
  it(
    "many events with the same content at once, on eight channels of one shape: one render, counted once",
    async () => {
      const surfaces = ["youtube-shorts", "tiktok", "instagram-reels", "facebook-reels"]
      for (const [i, surface] of [...surfaces, ...surfaces].entries()) {
        await desk.channel({ name: `${surface} ${i}`, surface, deliverByWebhook: false, deliverByEmail: true })
      }
      const channels = surfaces.length * 2
      const events = 12
      await Promise.all(Array.from({ length: events }, () => desk.send(sameVideo)))

      const jobs = await until(
        "every job waiting on a render",
        async () => (await desk.api.get("/v1/jobs?perPage=100")).body.jobs as Array<{ renderJobId: string | null }>,
        (list) => list.length === events * channels && list.every((job) => job.renderJobId !== null)
      )
      expect(
        new Set(jobs.map((job) => job.renderJobId)).size
      ).toBe(1)

      const renders = await until(
        "the render finished",
        async () => (await desk.api.get("/v1/render-jobs")).body,
        (body) => body.jobs.every((r: { state: string }) => r.state === "COMPLETED")
      )
      expect(renders.total).toBe(1)
      const quota = await desk.api.get("/v1/renders/quota")
      expect(quota.status, quota.text).toBe(200)
      expect(quota.body.quota.used).toBe(1)
    },
    90_000
  )
})
