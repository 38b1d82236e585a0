import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { until } from "../delivery/HandOverDesk.js"
import { type Receiver, startReceiver } from "../support/Receiver.js"
import { useNode } from "../support/Rig.js"
import { openWebhookDesk } from "./WebhookDesk.js"

interface OtlpPoint {
  readonly attributes: ReadonlyArray<{ key: string; value: { stringValue?: string } }>
  readonly asInt?: number
  readonly asDouble?: number
}
interface OtlpMetric {
  readonly name: string
  readonly sum?: { dataPoints: ReadonlyArray<OtlpPoint> }
}

/** An OTLP/HTTP collector on loopback that keeps the metrics it is sent (JSON) and accepts anything else. */
const startCollector = async () => {
  const metrics: Array<OtlpMetric> = []
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      if (req.url === "/v1/metrics") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        for (const resource of body.resourceMetrics) {
          for (const scope of resource.scopeMetrics) metrics.push(...scope.metrics)
        }
      }
      res.writeHead(200, { "content-type": "application/json" })
      res.end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    metrics,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

let receiver: Receiver
let collector: Awaited<ReturnType<typeof startCollector>>

beforeAll(async () => {
  collector = await startCollector()
  let calls = 0
  receiver = await startReceiver(() => (++calls === 1 ? { status: 503 } : { status: 200 }))
})

afterAll(async () => {
  await receiver?.stop()
  await collector?.stop()
})

const { node } = useNode({
  label: "webhook_trace",
  env: () => ({
    ALLOW_PRIVATE_URLS: "true",
    DELIVERY_RETRY_SCHEDULE: "1s",
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_METRIC_EXPORT_INTERVAL: "300"
  })
})

const logLines = () =>
  node.output().split("\n").flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as { message: unknown; annotations?: Record<string, unknown> }
      return typeof parsed === "object" && parsed !== null && parsed.annotations !== undefined ? [parsed] : []
    } catch {
      return []
    }
  })

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/

describe("following a hand-over", () => {
  it(
    "each webhook attempt carries its own traceparent, its trace id is in the node's log lines, and metrics reach OTLP",
    async () => {
      const desk = await openWebhookDesk(node.url, node.adminToken, receiver.url)
      await desk.send()
      const calls = await receiver.waitFor(2, 90_000)

      const [first, second] = calls.map((call) => TRACEPARENT.exec(String(call.headers["traceparent"])))
      expect(first, String(calls[0]!.headers["traceparent"])).not.toBeNull()
      expect(second, String(calls[1]!.headers["traceparent"])).not.toBeNull()
      expect(second![2]).not.toBe(first![2])

      const deliveryId = calls[0]!.headers["webhook-id"] as string
      const failedLine = await until(
        "the failed attempt's log line",
        async () =>
          logLines().find((l) =>
            l.message === "Hand-over attempt failed" && l.annotations?.["deliveryId"] === deliveryId
          ),
        (line) => line !== undefined,
        10_000
      )
      expect(failedLine!.annotations).toMatchObject({
        traceId: first![1],
        state: "RETRYING",
        via: "webhook",
        attempt: 1
      })

      // The signed, stored headers are the same bytes as before: traceparent travels beside them.
      const stored = await desk.api.get(`/v1/deliveries/${deliveryId}`)
      expect(stored.status, stored.text).toBe(200)
      expect(Object.keys(stored.body.delivery.headers)).not.toContain("traceparent")

      const attemptsSeen = (): Array<Record<string, string | number>> =>
        collector.metrics.filter((m) => m.name === "clipwright.deliveries.attempts").flatMap((m) =>
          (m.sum?.dataPoints ?? []).map((p) => ({
            ...Object.fromEntries(p.attributes.map((a) => [a.key, a.value.stringValue ?? ""])),
            count: p.asInt ?? p.asDouble ?? 0
          }))
        )
      const seen = await until(
        "both attempts exported",
        async () => attemptsSeen(),
        (points) => points.some((p) => p["state"] === "DELIVERED"),
        10_000
      )
      expect(seen).toEqual(expect.arrayContaining([
        { state: "RETRYING", via: "webhook", event: "post.publish", attempt: "1", count: 1 },
        { state: "DELIVERED", via: "webhook", event: "post.publish", attempt: "2", count: 1 }
      ]))
      expect(collector.metrics.map((m) => m.name)).toContain("effect_cluster_entities")
    },
    120_000
  )
})
