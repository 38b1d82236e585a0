import { it } from "@effect/vitest"
import { type ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { inProcessNode } from "../support/InProcessNode.js"
import { formPost, SESSION_COOKIE, setCookie, signInLink, withSession } from "../support/People.js"
import { useNode } from "../support/Rig.js"
import { capturedSpans } from "../support/SpanCapture.js"

// The node is built in the test, with a span exporter of its own: the rig gives the database and the sink only.
const { db, sink } = useNode({ label: "console_spans", node: false, smtp: true })

/** Everything a span carries that an exporter would send: name, attributes, events and their attributes. */
const exported = (span: ReadableSpan) =>
  JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })

describe("secrets in traces", () => {
  it.live(
    "no span of signing in, using the session or signing out holds the link's token or the session id",
    () =>
      Effect.gen(function*() {
        const { exporter, tracing } = capturedSpans()
        const node = yield* inProcessNode({ databaseUrl: db.url, name: "spans", smtpUrl: sink.url, telemetry: tracing })
        const base = node.url
        const created = yield* Effect.promise(() =>
          fetch(`${base}/admin/workspaces`, {
            method: "POST",
            headers: { authorization: `Bearer ${node.adminToken}`, "content-type": "application/json" },
            body: JSON.stringify({ name: "Spans", ownerEmail: "owner@spans.test" })
          })
        )
        expect(created.status).toBe(201)

        const { token, sessionId } = yield* Effect.promise(async () => {
          const before = sink.messages.length
          await formPost(node, "/console/sign-in", { email: "owner@spans.test" })
          const link = await signInLink(sink, "owner@spans.test", before)
          await fetch(link.url)
          const continued = await formPost(node, `/console/sign-in/${link.token}`, {})
          const id = setCookie(continued.headers, SESSION_COOKIE)!.value
          await fetch(`${base}/console`, { headers: withSession(id) })
          await fetch(`${base}/v1/whoami`, { headers: withSession(id) })
          await formPost(node, "/console/sign-out", {}, { cookie: `${SESSION_COOKIE}=${id}` })
          return { token: link.token, sessionId: id }
        })
        // Spans end a moment after their answers.
        yield* Effect.sleep("1 second")
        const spans = exporter.getFinishedSpans()
        const paths = spans.map((s) => s.attributes["url.path"]).filter((p) => p !== undefined)
        expect(paths).toContain("/console/sign-in/:token")
        expect(spans.map((s) => s.name)).toEqual(expect.arrayContaining(["People.signIn", "People.requestLink"]))
        for (const span of spans) {
          const text = exported(span)
          expect(text, span.name).not.toContain(token)
          expect(text, span.name).not.toContain(sessionId)
        }
      }).pipe(Effect.scoped),
    60_000
  )
})
