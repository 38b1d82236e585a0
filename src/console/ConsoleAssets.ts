import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import { CONSOLE_CSS } from "./ConsoleStyle.js"

/** htmx 2 as npm ships it, served by us: the console fetches nothing from any other origin. */
const HTMX_PATH = createRequire(import.meta.url).resolve("htmx.org/dist/htmx.min.js")

const headers = {
  // The addresses carry no version: a day's cache, then a revalidation.
  "cache-control": "public, max-age=86400",
  "x-content-type-options": "nosniff"
}

export const ASSETS = {
  css: "/console/assets/console.css",
  htmx: "/console/assets/htmx.min.js"
} as const

/** The two files every console page loads, read once. */
export const makeAssets = Effect.sync(() => {
  const htmx = fs.readFileSync(HTMX_PATH)
  return {
    css: HttpServerResponse.text(CONSOLE_CSS, { contentType: "text/css; charset=utf-8", headers }),
    htmx: HttpServerResponse.uint8Array(htmx, { contentType: "text/javascript; charset=utf-8", headers })
  }
})
