import { it } from "@effect/vitest"
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { inProcessNode } from "../support/InProcessNode.js"
import { useDatabase } from "../support/Rig.js"
import { capturedSpans } from "../support/SpanCapture.js"

const db = useDatabase("trace")

const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId

const ancestors = (span: ReadableSpan, byId: Map<string, ReadableSpan>): Array<string> => {
  const names: Array<string> = []
  let current = parentId(span)
  while (current !== undefined) {
    const parent = byId.get(current)
    if (parent === undefined) break
    names.push(parent.name)
    current = parentId(parent)
  }
  return names
}

/**
 * The finished spans of a trace once `ready` holds of them, or after 10 s whatever there is: a request's spans end as
 * its fibers finish, a moment after the answer (longer on a loaded machine).
 */
const spansOf = (
  exporter: InMemorySpanExporter,
  traceId: string | undefined,
  ready: (spans: Array<ReadableSpan>) => boolean
) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 10_000
    for (;;) {
      const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId)
      if (ready(spans) || Date.now() > deadline) return spans
      yield* Effect.sleep("25 millis")
    }
  })

const named = (spans: Array<ReadableSpan>, ...names: Array<string>) =>
  names.every((name) => spans.some((s) => s.name === name || (name === "http.server" && s.name.startsWith(name))))

describe("tracing", () => {
  it.live(
    "one request is one trace from HTTP through the entity to SQL, and the trace id is in traceparent",
    () =>
      Effect.gen(function*() {
        const { exporter, tracing } = capturedSpans()
        const node = yield* inProcessNode({ databaseUrl: db.url, name: "trace", telemetry: tracing })

        const base = node.url
        const post = (p: string, body: unknown, key = node.adminToken) =>
          Effect.promise(() =>
            fetch(base + p, {
              method: "POST",
              headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
              body: JSON.stringify(body)
            })
          )
        const json = (r: Response) => Effect.promise(() => r.json() as Promise<Record<string, string>>)
        const workspace = yield* post("/admin/workspaces", { name: "Traced" }).pipe(Effect.flatMap(json))
        const key = yield* post(`/admin/workspaces/${workspace["accountId"]}/keys`, { scopes: ["*"] }).pipe(
          Effect.flatMap(json)
        )
        exporter.reset()
        const response = yield* post("/v1/streams", { name: "Traced", templateId: "tpl_3a7c91e04b5d" }, key["apiKey"])
        expect(response.status).toBe(201)
        const traceId = response.headers.get("traceparent")?.split("-")[1]
        const spans = yield* spansOf(
          exporter,
          traceId,
          (found) => named(found, "http.server", "Stream.create", "sql.execute")
        )
        const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]))
        const names = spans.map((s) => s.name)
        const server = spans.find((s) => s.name.startsWith("http.server"))
        expect(server, names.join(", ")).toBeDefined()
        const entitySpan = spans.find((s) => s.name === "Stream.create")
        expect(entitySpan, names.join(", ")).toBeDefined()
        expect(ancestors(entitySpan!, byId)).toContain(server!.name)
        expect(ancestors(entitySpan!, byId)).toContain("Streams.create")
        const insert = spans.find((s) => s.name === "sql.execute" && ancestors(s, byId).includes("Stream.create"))
        expect(insert, names.join(", ")).toBeDefined()
        expect(server!.attributes).toMatchObject({ "http.request.method": "POST", "http.response.status_code": 201 })

        // Updates of several streams sent together share group-committed statements; each trace still shows its own.
        const streamIds = [1, 2, 3, 4, 5, 6].map((n) => `st_00000000aa0${n}`)
        yield* Effect.forEach(
          streamIds,
          (id) => post("/v1/streams", { id, name: id, templateId: "tpl_3a7c91e04b5d" }, key["apiKey"])
        )
        const updates = yield* Effect.forEach(
          streamIds,
          (id) => post(`/v1/streams/${id}/update`, { name: `${id} renamed` }, key["apiKey"]),
          { concurrency: "unbounded" }
        )
        expect(updates.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200])
        for (const update of updates) {
          const updateTrace = update.headers.get("traceparent")?.split("-")[1]
          const traced = yield* spansOf(
            exporter,
            updateTrace,
            (found) => named(found, "http.server", "Stream.update", "sql.execute")
          )
          const tracedById = new Map(traced.map((s) => [s.spanContext().spanId, s]))
          const statement = traced.find((s) =>
            s.name === "sql.execute" && ancestors(s, tracedById).includes("Stream.update")
          )
          expect(statement, traced.map((s) => s.name).join(", ")).toBeDefined()
          expect(statement!.attributes["db.operation.batch.size"]).toBeGreaterThanOrEqual(1)
          expect(ancestors(statement!, tracedById).some((name) => name.startsWith("http.server"))).toBe(true)
        }

        // A caller's own trace is continued: its trace id comes back, and the server span hangs under its span.
        const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
        const continued = yield* Effect.promise(() =>
          fetch(`${base}/v1/whoami`, {
            headers: { authorization: `Bearer ${key["apiKey"]}`, traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` }
          })
        )
        expect(continued.status).toBe(200)
        expect(continued.headers.get("traceparent")?.split("-")[1]).toBe(callerTrace)
        // The server span, not whichever span of the trace finished first (a key lookup's SQL, once the cache expired).
        const child = (yield* spansOf(exporter, callerTrace, (found) => named(found, "http.server")))
          .find((s) => s.name.startsWith("http.server"))
        expect(child?.parentSpanContext?.spanId).toBe("00f067aa0ba902b7")
      }).pipe(Effect.scoped),
    60_000
  )
})
