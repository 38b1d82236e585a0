import { OpenApi } from "@effect/platform"
import { beforeAll, describe, expect, it } from "vitest"
import { ClipwrightApi } from "../../src/Api.js"
import { call } from "../support/Client.js"
import { useNode } from "../support/Rig.js"

// `npm run lint:openapi` lints `OpenApi.fromApi(ClipwrightApi)` without a node; this pins that the node serves exactly
// that document, and checks what redocly's rules do not: every operation also has a description.
let served: Record<string, any>

const { node } = useNode({ label: "openapi" })

beforeAll(async () => {
  const answer = await call(node.url, "GET", "/v1/openapi.json")
  expect(answer.status, answer.text).toBe(200)
  served = answer.body
})

const operations = () =>
  Object.entries<Record<string, any>>(served["paths"]).flatMap(([path, methods]) =>
    Object.entries<Record<string, any>>(methods)
      .map(([method, operation]) => ({ route: `${method} ${path}`, operation }))
  )

describe("/v1/openapi.json", () => {
  it("is the document `npm run lint:openapi` lints", () => {
    expect(served).toEqual(JSON.parse(JSON.stringify(OpenApi.fromApi(ClipwrightApi))))
  })

  it("gives every operation a summary and a description", () => {
    expect(operations().length).toBeGreaterThan(60)
    const unexplained = operations()
      .filter(({ operation }) => !(operation.summary?.trim()) || !(operation.description?.trim()))
      .map(({ route }) => route)
    expect(unexplained).toEqual([])
  })

  it("states on every key-secured /v1 operation the permission the middleware checks", () => {
    const secured = operations().filter(({ operation, route }) =>
      route.split(" ")[1]!.startsWith("/v1/") && (operation.security?.length ?? 0) > 0
    )
    expect(secured.length).toBeGreaterThan(60)
    expect(secured.filter(({ operation }) => !/\*\*Permission:\*\* /.test(operation.description))).toEqual([])
    const byRoute = Object.fromEntries(secured.map(({ operation, route }) => [route, operation["x-permission"]]))
    expect(byRoute).toMatchObject({
      "post /v1/channels": "channels:write",
      "get /v1/feeds": "feeds:read",
      "put /v1/connections/mode": "connections:write",
      "get /v1/catalogue": "templates:read",
      "post /v1/storage/split": "media:write"
    })
  })

  it("declares every tag once, with a description, and a server the paths are relative to", () => {
    const tags: Array<Record<string, any>> = served["tags"]
    expect(new Set(tags.map((tag) => tag.name)).size).toBe(tags.length)
    expect(tags.filter((tag) => !(tag.description?.trim())).map((tag) => tag.name)).toEqual([])
    const declared = new Set(tags.map((tag) => tag.name))
    expect(operations().flatMap(({ operation }) => operation.tags).filter((tag) => !declared.has(tag))).toEqual([])
    expect(served["servers"]).toEqual([{ url: "/", description: expect.any(String) }])
  })
})
