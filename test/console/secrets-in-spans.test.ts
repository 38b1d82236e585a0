import { NodeSdk } from "@effect/opentelemetry"
import { it } from "@effect/vitest"
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Option } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect } from "vitest"
import { AppConfig } from "../../src/Config.js"
import { NodeLive } from "../../src/Server.js"
import { createTestDatabase, type TestDatabase } from "../support/Database.js"
import { freePort } from "../support/Node.js"
import { formPost, SESSION_COOKIE, setCookie, signInLink, withSession } from "../support/People.js"
import { type SmtpSink, startSmtpSink } from "../support/SmtpSink.js"

let db: TestDatabase
let sink: SmtpSink
beforeAll(async () => {
  db = await createTestDatabase("console_spans")
  sink = await startSmtpSink()
})
afterAll(async () => {
  await sink?.stop()
  await db?.drop()
})

/** Everything a span carries that an exporter would send: name, attributes, events and their attributes. */
const exported = (span: ReadableSpan) =>
  JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })

describe("secrets in traces", () => {
  it.live(
    "no span of signing in, using the session or signing out holds the link's token or the session id",
    () =>
      Effect.gen(function*() {
        const exporter = new InMemorySpanExporter()
        const port = yield* Effect.promise(freePort)
        const base = `http://127.0.0.1:${port}`
        const settings = {
          port,
          host: "127.0.0.1",
          databaseUrl: Option.some(db.url),
          dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-spans-")),
          publicBaseUrl: base,
          adminToken: Option.some("spans-admin-token-of-24-chars"),
          smtpUrl: Option.some(sink.url),
          allowPrivateUrls: true,
          deliveryRetrySchedule: "1s",
          runnerHost: "127.0.0.1",
          runnerListenHost: "127.0.0.1",
          runnerPort: yield* Effect.promise(freePort),
          renderSlots: 1,
          otlpEndpoint: Option.none(),
          serviceName: "clipwright-test"
        }
        const tracing = NodeSdk.layer(() => ({
          resource: { serviceName: "clipwright-test" },
          spanProcessor: new SimpleSpanProcessor(exporter)
        }))
        yield* Layer.build(NodeLive.pipe(Layer.provide(AppConfig.make(settings)), Layer.provide(tracing)))
        const node = { url: base }
        const created = yield* Effect.promise(() =>
          fetch(`${base}/admin/workspaces`, {
            method: "POST",
            headers: { authorization: "Bearer spans-admin-token-of-24-chars", "content-type": "application/json" },
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
