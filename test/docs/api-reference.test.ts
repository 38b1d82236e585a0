import { OpenApi } from "@effect/platform"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { apiReference, type OpenApiDocument } from "../../scripts/ApiReference.js"
import { ClipwrightApi } from "../../src/Api.js"
import { root } from "./Snippets.js"

/** docs/api.md is written from the OpenAPI document by `npm run docs:api`; a change to the API must rewrite it. */
const document = JSON.parse(JSON.stringify(OpenApi.fromApi(ClipwrightApi))) as OpenApiDocument
const page = fs.readFileSync(path.join(root, "docs/api.md"), "utf8")
const operations = Object.entries(document.paths).flatMap(([route, item]) =>
  Object.entries(item).map(([method, op]) => ({ route, method, op }))
)

describe("docs/api.md", () => {
  it("is what npm run docs:api writes from the OpenAPI document (run it after changing the API)", () => {
    expect(page === apiReference(document), "docs/api.md is stale: run `npm run docs:api`").toBe(true)
  })

  it("has every route with its summary and an example call", () => {
    expect(operations.length).toBeGreaterThan(100)
    for (const { method, op, route } of operations) {
      const at = page.indexOf(`\`${method.toUpperCase()} ${route}\``)
      expect(at, `${method} ${route}`).toBeGreaterThan(0)
      expect(page.lastIndexOf(`### ${op.summary}`, at), `${method} ${route}'s summary`).toBeGreaterThan(0)
      expect(page.indexOf("```sh\ncurl -s", at) - at, `${method} ${route}'s example`).toBeLessThan(3000)
    }
  })

  it("shows the owner-only routes called with the owner's session cookie, since every API key answers 403", () => {
    for (const route of ["/v1/renders/buy", "/v1/renders/keep", "/v1/renders/drop"]) {
      const at = page.indexOf(`\`POST ${route}\``)
      const section = page.slice(at, page.indexOf("\n### ", at))
      expect(section, route).toContain("every API key is answered 403 `forbidden`")
      expect(section, route).toMatch(/```sh\ncurl -s -X POST "[^"]+" -H "cookie: clipwright_session=\$SESSION"/)
      expect(section, route).not.toContain("Bearer $KEY")
    }
  })

  it("names the routes a newcomer could not find before", () => {
    for (
      const route of [
        "POST /v1/direct-export/timing",
        "GET /v1/direct-export/queue",
        "POST /v1/direct-export/video/{jobId}/discard",
        "GET /v1/direct-export/video/{jobId}/reuse",
        "GET /v1/render-jobs",
        "POST /v1/streams/{id}/suggest-map",
        "GET /v1/templates/{templateId}/reference"
      ]
    ) expect(page).toContain(`\`${route}\``)
    expect(page).toContain("`/docs`")
    expect(page).toContain("`/v1/openapi.json`")
  })
})
