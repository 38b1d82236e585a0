import { beforeAll, describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { videoBody } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"
import { readZip } from "../support/ZipRead.js"

let ws: Awaited<ReturnType<typeof workspaceWithKey>>

const { node } = useNode({ label: "locale_copy" })

beforeAll(async () => {
  ws = await workspaceWithKey(node, ["renders:write"])
})

/** The last frame (everything settled) of a 1x1 compact clip, as PNG bytes. */
const lastFrame = async (data: unknown, locale: string) => {
  const response = await fetch(`${node.url}/v1/direct-export/keyframes`, {
    method: "POST",
    headers: { authorization: `Bearer ${ws.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(videoBody(data, { locale, frames: [{ name: "end", frame: 179 }] }))
  })
  expect(response.status).toBe(200)
  return readZip(Buffer.from(await response.arrayBuffer()))[0]!.data
}

describe("content in the requested language", () => {
  it("draws the locale's copy laid over the default, and the default where a language has none", async () => {
    const english = { clipData: { headline: "Oil prices climb", subline: "Brent at a two-month high" } }
    const withGerman = {
      ...english,
      locales: { de: { clipData: { headline: "Ölpreise steigen" } } }
    }
    const germanAsDefault = { clipData: { headline: "Ölpreise steigen", subline: "Brent at a two-month high" } }

    const de = await lastFrame(withGerman, "de")
    // Same picture as drawing the German headline directly: the de copy replaced the headline, the subline stayed.
    expect(de.equals(await lastFrame(germanAsDefault, "de"))).toBe(true)
    expect(de.equals(await lastFrame(english, "de"))).toBe(false)
    // A language without copy draws the default content.
    expect((await lastFrame(withGerman, "fr")).equals(await lastFrame(english, "fr"))).toBe(true)
  }, 120_000)
})
