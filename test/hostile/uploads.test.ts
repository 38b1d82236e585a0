import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { admin, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { png, wav } from "../support/MediaFiles.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"
import { upload } from "../support/Uploads.js"

// Uploads a hostile key can send: sniffing that must not stall, shares that must hold under races, SVGs that must
// not reach outside themselves.

const { db, node } = useNode({ label: "hostile_uploads" })

const encode = (text: string) => new TextEncoder().encode(text)
const SVG_OPEN =
  "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"10\" height=\"10\">"

/** Every blob file of the media library on disk, as blob keys. */
const blobFiles = () => {
  const root = path.join(node.dataDir, "blobs")
  const media = path.join(root, "media")
  if (!fs.existsSync(media)) return []
  return fs.readdirSync(media, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
}

const liveKeys = async () =>
  (await query<{ blob_key: string }>(db.url, "SELECT blob_key FROM media_files WHERE deleted_at IS NULL"))
    .map((r) => r.blob_key)

describe("SVG sniffing", () => {
  it("10,000 comments before the root are answered, and /health answers while they are", async () => {
    const ws = await workspaceWithKey(node, ["media:read", "media:write"], "Comments")
    const sending = upload(`${node.url}/v1/media`, ws.apiKey, {
      bytes: encode("<!---->".repeat(10_000) + "x"),
      name: "a.svg"
    })
    const health = await fetch(`${node.url}/health`, { signal: AbortSignal.timeout(10_000) }).then((r) => r.status)
    const r = await sending
    expect(health).toBe(200)
    expect(expectError(r, 400, "schema_validation").details[0]).toMatchObject({ path: "/file", rule: "fileType" })
    // The shape the issue reproduced (40 comments, then not an element) and a real SVG after 40 comments.
    const forty = await upload(`${node.url}/v1/media`, ws.apiKey, {
      bytes: encode("<!---->".repeat(40) + "x"),
      name: "a.svg"
    })
    expectError(forty, 400, "schema_validation")
    const real = await upload(`${node.url}/v1/media`, ws.apiKey, {
      bytes: encode("<!---->".repeat(40) + SVG_OPEN + "</svg>"),
      name: "b.svg"
    })
    expect(real.status, real.text).toBe(201)
    expect(real.body.file.mimeType).toBe("image/svg+xml")
  }, 60_000)
})

describe("storage share under parallel uploads", () => {
  it("10 parallel uploads that together exceed the share store no more than the share, refusals clean", async () => {
    const ws = await workspaceWithKey(node, ["media:read", "media:write", "brands:write"], "Racing")
    await admin(node).put(`/admin/workspaces/${ws.accountId}/limits`, { storageMb: 1 })
    const share = (await ws.api.get("/v1/media")).body.storage.media.maxBytes as number
    const size = 200 * 1024
    // Each one alone fits; together they are four times the share.
    expect(size).toBeLessThan(share)
    const answers = await Promise.all(
      Array.from(
        { length: 10 },
        (_, i) => upload(`${node.url}/v1/media`, ws.apiKey, { bytes: wav(size), name: `take-${i}.wav` })
      )
    )
    const taken = answers.filter((r) => r.status === 201)
    const refused = answers.filter((r) => r.status !== 201)
    expect(taken.length).toBeGreaterThan(0)
    expect(refused.length).toBeGreaterThan(0)
    for (const r of refused) expect(expectError(r, 413, "payload_too_large").message).toContain("share")
    const [row] = await query<{ total: string }>(
      db.url,
      "SELECT coalesce(sum(byte_size), 0)::text AS total FROM media_files WHERE workspace_id = $1 AND deleted_at IS NULL",
      [ws.accountId]
    )
    expect(Number(row?.total)).toBeLessThanOrEqual(share)
    expect(Number(row?.total)).toBe(taken.length * size)
    const listed = (await ws.api.get("/v1/media")).body
    expect(listed.files).toHaveLength(taken.length)
    expect(listed.storage.media.usedBytes).toBeLessThanOrEqual(share)
  }, 120_000)

  it("brand asset uploads in parallel are held to the same share", async () => {
    const ws = await workspaceWithKey(
      node,
      ["media:read", "media:write", "brands:read", "brands:write"],
      "Racing brands"
    )
    await admin(node).put(`/admin/workspaces/${ws.accountId}/limits`, { storageMb: 1 })
    const share = (await ws.api.get("/v1/media")).body.storage.media.maxBytes as number
    const brands: Array<string> = []
    for (let i = 0; i < 8; i++) brands.push((await ws.api.post("/v1/brands", { name: `Brand ${i}` })).body.brand.id)
    // PNG logos of 150 kB each (a small picture padded after its end): eight are more than twice the share.
    const logo = new Uint8Array(150 * 1024)
    logo.set(png(10, 10))
    const answers = await Promise.all(
      brands.map((id) =>
        upload(`${node.url}/v1/brands/${id}/assets/logo`, ws.apiKey, { bytes: logo, name: "logo.png" })
      )
    )
    const refused = answers.filter((r) => r.status !== 201)
    expect(refused.length).toBeGreaterThan(0)
    for (const r of refused) expectError(r, 413, "payload_too_large")
    const used = (await ws.api.get("/v1/media")).body.storage.media.usedBytes as number
    expect(used).toBeLessThanOrEqual(share)
  }, 120_000)

  it("leaves no file on disk that no row refers to", async () => {
    const live = new Set(await liveKeys())
    expect(blobFiles().filter((key) => !live.has(key))).toEqual([])
    expect(fs.readdirSync(path.join(node.dataDir, "blobs", ".tmp"))).toEqual([])
  })
})

describe("SVGs that reach outside themselves", () => {
  const hostile: ReadonlyArray<[string, string]> = [
    ["image href to a file", "<image href=\"file:///etc/passwd\" width=\"10\" height=\"10\"/>"],
    [
      "xlink:href to the metadata address",
      "<image xlink:href=\"http://169.254.169.254/latest\" width=\"1\" height=\"1\"/>"
    ],
    ["use of another file", "<use href=\"other.svg#shape\"/>"],
    ["unquoted relative href", "<use href=../../data/secret.svg#a />"],
    ["data: SVG that could nest more", "<image href=\"data:image/svg+xml;base64,PHN2Zy8+\"/>"],
    ["url() in a presentation attribute", "<rect width=\"5\" height=\"5\" fill=\"url(file:///etc/hosts#g)\"/>"],
    ["url() in a style element", "<style>rect { fill: url( 'http://example.test/p.svg#g' ) }</style>"],
    ["@import", "<style>@import \"https://example.test/x.css\";</style>"],
    ["a CSS escape spelling url(", "<style>rect { fill: u\\72 l(http://example.test/a) }</style>"],
    ["upper-case HREF", "<IMAGE HREF=\"FILE:///etc/passwd\"/>"],
    ["an unterminated reference", "<image href=\"#a"]
  ]

  it("the media library refuses each with 400 pointing at the file, and stores nothing", async () => {
    const ws = await workspaceWithKey(node, ["media:read", "media:write"], "SVG refs")
    for (const [what, body] of hostile) {
      const r = await upload(`${node.url}/v1/media`, ws.apiKey, {
        bytes: encode(SVG_OPEN + body + "</svg>"),
        name: "logo.svg"
      })
      const error = expectError(r, 400, "schema_validation")
      expect(error.details, what).toEqual([expect.objectContaining({ path: "/file", rule: "svgExternalReference" })])
    }
    // An entity declaration comes before the root (in the doctype).
    const entity = "<!DOCTYPE svg [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>" + SVG_OPEN + "<text>&x;</text></svg>"
    expectError(
      await upload(`${node.url}/v1/media`, ws.apiKey, { bytes: encode(entity), name: "e.svg" }),
      400,
      "schema_validation"
    )
    expect((await ws.api.get("/v1/media")).body.files).toEqual([])
  }, 60_000)

  it("a self-contained SVG is taken: fragment references and embedded raster pictures", async () => {
    const ws = await workspaceWithKey(node, ["media:read", "media:write"], "SVG clean")
    const body =
      "<defs><linearGradient id=\"g\"><stop offset=\"0\"/></linearGradient><rect id=\"r\" width=\"2\" height=\"2\"/></defs>" +
      "<rect width=\"5\" height=\"5\" fill=\"url(#g)\" style=\"stroke: url('#g')\"/><use href=\"#r\"/><use xlink:href=\"#r\"/>" +
      "<image href=\"data:image/png;base64,iVBORw0KGgo=\" width=\"1\" height=\"1\"/><desc>srcset and hrefs in words</desc>"
    const r = await upload(`${node.url}/v1/media`, ws.apiKey, {
      bytes: encode(SVG_OPEN + body + "</svg>"),
      name: "clean.svg"
    })
    expect(r.status, r.text).toBe(201)
  })

  it("a brand logo slot refuses the same SVGs", async () => {
    const ws = await workspaceWithKey(node, ["media:read", "media:write", "brands:read", "brands:write"], "SVG slot")
    const brandId = (await ws.api.post("/v1/brands", { name: "Logo" })).body.brand.id
    for (const [what, body] of hostile.slice(0, 4)) {
      const r = await upload(`${node.url}/v1/brands/${brandId}/assets/logo`, ws.apiKey, {
        bytes: encode(SVG_OPEN + body + "</svg>"),
        name: "logo.svg"
      })
      expect(expectError(r, 400, "schema_validation").details[0], what).toMatchObject({ path: "/file" })
    }
    expect((await ws.api.get("/v1/media")).body.files).toEqual([])
    expect((await ws.api.get(`/v1/brands/${brandId}`)).body.brand.style.logo ?? null).toBeNull()
  }, 60_000)
})
