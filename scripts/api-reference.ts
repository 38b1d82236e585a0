// Writes docs/api.md from the OpenAPI document the node serves (`npm run docs:api`). test/docs/api-reference.test.ts
// fails when the committed page is not what this writes.
import { OpenApi } from "@effect/platform"
import * as fs from "node:fs"
import * as path from "node:path"
import { ClipwrightApi } from "../src/Api.js"
import { apiReference, type OpenApiDocument } from "./ApiReference.js"

const page = path.resolve(import.meta.dirname, "../docs/api.md")
// The document is plain JSON; its declared type is narrower about schemas than what the page reads of it.
const document = JSON.parse(JSON.stringify(OpenApi.fromApi(ClipwrightApi))) as OpenApiDocument
fs.writeFileSync(page, apiReference(document))
console.log(`wrote ${path.relative(process.cwd(), page)}`)
