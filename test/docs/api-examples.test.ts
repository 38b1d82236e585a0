import { OpenApi } from "@effect/platform"
import { Either, Option, ParseResult, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { answerExample, requestExample } from "../../scripts/ApiExamples.js"
import type { OpenApiDocument } from "../../scripts/ApiReference.js"
import { ClipwrightApi } from "../../src/Api.js"
import { root } from "./Snippets.js"

/** The examples docs/api.md shows are decoded with each route's own schemas, so they cannot drift from the API. */
const document = JSON.parse(JSON.stringify(OpenApi.fromApi(ClipwrightApi))) as OpenApiDocument
const page = fs.readFileSync(path.join(root, "docs/api.md"), "utf8")
const operations = new Map(
  Object.values(document.paths).flatMap((item) => Object.values(item)).map((op) => [op.operationId, op])
)
const endpoints = Object.values(ClipwrightApi.groups).flatMap((group) =>
  Object.values(group.endpoints).map((endpoint) => ({ group: group.identifier, endpoint }))
)

const refusal = (schema: Schema.Schema<unknown, unknown>, value: unknown): string | undefined => {
  const decoded = Schema.decodeUnknownEither(schema)(value)
  return Either.isLeft(decoded) ? ParseResult.TreeFormatter.formatErrorSync(decoded.left) : undefined
}

describe("docs/api.md examples", () => {
  it("decode with each route's request and success schemas", () => {
    const refused: Array<string> = []
    let checked = 0
    for (const { endpoint, group } of endpoints) {
      const op = operations.get(`${group}.${endpoint.name}`)
      if (op === undefined) continue
      const body = op.requestBody?.content?.["application/json"]?.schema
      if (body !== undefined && Option.isSome(endpoint.payloadSchema)) {
        checked++
        const why = refusal(endpoint.payloadSchema.value, requestExample(body, document, group))
        if (why !== undefined) refused.push(`${op.operationId} request: ${why}`)
      }
      const ok = Object.entries(op.responses ?? {}).find(([status]) => /^2/.test(status))
      const answer = ok?.[1].content?.["application/json"]?.schema
      if (answer !== undefined) {
        checked++
        const why = refusal(endpoint.successSchema, answerExample(answer, document, group))
        if (why !== undefined) refused.push(`${op.operationId} answer: ${why}`)
      }
    }
    expect(checked).toBeGreaterThan(150)
    expect(refused).toEqual([])
  })

  it("have no placeholder values", () => {
    // `"kind": "text"` (a brand badge) and `"type": "text"` (a template field) are real values of those enums.
    const placeholders = page.match(/(?<!"(?:kind|type|badgeKind)": ?)"(?:text|…|\.\.\.)"(?!:)/g) ?? []
    expect(placeholders).toEqual([])
    expect(page).not.toMatch(/curl [^\n]*[?&]\w+=…/)
  })
})
