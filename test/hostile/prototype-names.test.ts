import { beforeAll, describe, expect, it } from "vitest"
import { call, workspaceWithKey } from "../support/Client.js"
import { png } from "../support/MediaFiles.js"
import { fillPath, operationsOf } from "../support/OpenApiOperations.js"
import { useNode } from "../support/Rig.js"
import { upload } from "../support/Uploads.js"

// Names every plain object answers for: a lookup by request text in an object literal finds Object.prototype's.
const NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty"] as const

let key: string

const { node } = useNode({ label: "prototype_names" })

beforeAll(async () => {
  key = (await workspaceWithKey(node, ["*"], "Prototype names")).apiKey
}, 120_000)

const QUERY = ["locale", "platform", "state", "ratio", "kind", "status", "surface", "approval", "stage", "view"]

/** A body naming `name` in every field a route might look up by, and holding it as keys. */
const bodyOf = (name: string) => ({
  ...Object.fromEntries(
    [
      "name",
      "locale",
      "platform",
      "surface",
      "ratio",
      "templateId",
      "template",
      "kind",
      "slot",
      "language",
      "variant",
      "state",
      "format",
      "feed",
      "sourceSlug",
      "formatSlug"
    ].map((f) => [f, name])
  ),
  data: JSON.parse(`{"${name}": "x", "fields": {"${name}": 1}}`),
  fieldMap: JSON.parse(`{"${name}": {"from": "/${name}"}}`),
  posting: JSON.parse(`{"${name}": true}`)
})

describe("names of Object.prototype in request text", () => {
  it("as every path parameter, query parameter and body field of every route: never a 500", async () => {
    const document = (await call(node.url, "GET", "/v1/openapi.json")).body
    const faults: Array<string> = []
    for (const operation of operationsOf(document)) {
      if (!operation.path.startsWith("/v1/") && !operation.path.startsWith("/errors")) continue
      for (const name of NAMES) {
        const values = Object.fromEntries(operation.pathParams.map((p) => [p, name]))
        const query = QUERY.map((q) => `${q}=${encodeURIComponent(name)}`).join("&")
        const url = `${fillPath(operation.path, values)}?${query}`
        const r = operation.method === "GET"
          ? await call(node.url, "GET", url, { key })
          : await call(node.url, operation.method, url, {
            key,
            raw: JSON.stringify(bodyOf(name)),
            headers: { "content-type": "application/json" }
          })
        // A GET sends no body: a 400 for a missing field that is no query parameter is the answer failing its schema.
        const queryParams = new Set<string>(
          (document.paths[operation.path].get?.parameters ?? [])
            .filter((p: { in: string }) => p.in === "query").map((p: { name: string }) => `/${p.name}`)
        )
        const answerBroken = operation.method === "GET" && r.status === 400 &&
          r.body?.error?.details?.some((d: { rule?: string; path?: string }) =>
            d.rule === "missing" && !queryParams.has(d.path ?? "")
          )
        if (r.status >= 500 || answerBroken) {
          faults.push(`${operation.method} ${url}: ${r.status} ${r.text.slice(0, 200)}`)
        }
      }
    }
    expect(faults).toEqual([])
  }, 300_000)

  it("as a connector script language: 404 like any other unknown one", async () => {
    for (const name of NAMES) {
      const r = await call(node.url, "GET", `/v1/connector/script/${name}`, { key })
      expect(r.status, r.text).toBe(404)
      expect(r.body.error.code).toBe("not_found")
    }
  })

  it("as a file name", async () => {
    for (const name of NAMES) {
      const r = await upload(`${node.url}/v1/media`, key, { bytes: png(4, 4), name })
      expect(r.status, r.text).toBe(201)
      expect(r.body.file.name).toBe(`${name}.png`)
    }
  })
})
