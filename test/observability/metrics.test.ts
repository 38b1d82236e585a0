import { NodeSdk } from "@effect/opentelemetry"
import { it } from "@effect/vitest"
import {
  AggregationTemporality,
  type DataPoint,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader
} from "@opentelemetry/sdk-metrics"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { until } from "../delivery/HandOverDesk.js"
import { inProcessNode } from "../support/InProcessNode.js"
import { startReceiver } from "../support/Receiver.js"
import { useDatabase } from "../support/Rig.js"
import { openWebhookDesk } from "./WebhookDesk.js"

const db = useDatabase("metrics")

describe("metrics", () => {
  it.live(
    "count an accepted event and its webhook hand-over, with the attributes an operator filters on",
    () =>
      Effect.gen(function*() {
        const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
        const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 })
        const receiver = yield* Effect.acquireRelease(
          Effect.promise(() => startReceiver()),
          (r) => Effect.promise(r.stop)
        )
        const sdk = NodeSdk.layer(() => ({ resource: { serviceName: "clipwright-test" }, metricReader: reader }))
        const node = yield* inProcessNode({ databaseUrl: db.url, name: "metrics", telemetry: sdk })

        const desk = yield* Effect.promise(() => openWebhookDesk(node.url, node.adminToken, receiver.url))
        yield* Effect.promise(() => desk.send())
        yield* Effect.promise(() => receiver.waitFor(1, 90_000))

        /** The points of one metric, as the collector would receive them now. */
        const points = async (name: string): Promise<Array<DataPoint<unknown>>> => {
          exporter.reset()
          await reader.forceFlush()
          return exporter.getMetrics().flatMap((resource) =>
            resource.scopeMetrics.flatMap((scope) => scope.metrics.filter((m) => m.descriptor.name === name))
          ).flatMap((metric) => metric.dataPoints as Array<DataPoint<unknown>>)
        }
        const delivered = yield* Effect.promise(() =>
          until("a delivered attempt counted", () =>
            points("clipwright.deliveries.attempts"), (found) =>
            found.length > 0, 10_000)
        )
        expect(delivered.map((p) => ({ attributes: p.attributes, value: p.value }))).toEqual([{
          attributes: { state: "DELIVERED", via: "webhook", event: "post.publish", attempt: "1" },
          value: 1
        }])
        const accepted = yield* Effect.promise(() =>
          points("clipwright.ingest.accepted")
        )
        expect(accepted.map((p) => ({ attributes: p.attributes, value: p.value }))).toEqual([{
          attributes: { origin: "custom", input: "stream" },
          value: 1
        }])
        const rendered = yield* Effect.promise(() => points("clipwright.render.duration"))
        expect(rendered.map((p) => p.attributes)).toEqual([{ state: "COMPLETED", origin: "custom" }])
        // Read from the database every 10 s: the next reading counts the published job.
        const published = yield* Effect.promise(() =>
          until("the published job sampled", () =>
            points("clipwright.jobs"), (found) =>
            found.some((p) =>
              p.attributes["status"] === "PUBLISHED"
            ), 15_000)
        )
        expect(
          published.find((p) =>
            p.attributes["status"] === "PUBLISHED"
          )?.value
        ).toBe(1)
        // How long the render waited for its turn, per workspace, as p50 and p95.
        const waited = yield* Effect.promise(() => points("clipwright.render.queue.wait_quantiles"))
        expect(waited.map((p) => p.attributes["quantile"])).toEqual(expect.arrayContaining(["0.5", "0.95"]))
        expect(new Set(waited.map((p) => p.attributes["workspace"]))).toEqual(new Set([desk.accountId]))
        const queue = yield* Effect.promise(() => points("clipwright.render.queue"))
        expect(queue.map((p) => [p.attributes["state"], p.value])).toEqual(expect.arrayContaining([["PENDING", 0]]))
      }).pipe(Effect.scoped),
    120_000
  )
})
