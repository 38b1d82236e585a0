import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { ErrorCatalogue, isErrorCode, NotFound, UpstreamUnavailable } from "../domain/Errors.js"
import { escapeHtml } from "../http/Html.js"

const errorPage = (code: string, status: number, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${code}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;line-height:1.5}</style></head>` +
  `<body><h1><code>${code}</code></h1><p>HTTP status <strong>${status}</strong></p>` +
  `<p>${escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>` +
  `<p>Every failure answers <code>{ error: { type, code, message, requestId, details[] } }</code>; ` +
  `branch on <code>code</code>, and quote <code>requestId</code> when you ask for help.</p></body></html>`

export const SystemHttpLive = HttpApiBuilder.group(ClipwrightApi, "system", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("health", () =>
        sql`SELECT 1`.pipe(
          Effect.timeout("2 seconds"),
          Effect.as({ status: "ok" as const }),
          Effect.catchAllCause(() =>
            new UpstreamUnavailable({ message: "The database does not answer.", retryAfterSeconds: 5 })
          )
        ))
      .handle("errorPage", ({ path }) => {
        if (!isErrorCode(path.code)) return Effect.fail(new NotFound({ message: `No error code ${path.code}.` }))
        const [status, text] = ErrorCatalogue[path.code]
        return Effect.succeed(errorPage(path.code, status, text))
      })
  }))
