import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../Config.js"

/** OTLP/HTTP export when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise spans stay in-process (ids still flow). */
export const TracingLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  if (Option.isNone(config.otlpEndpoint)) return Layer.empty
  const url = `${config.otlpEndpoint.value.replace(/\/+$/, "")}/v1/traces`
  // Imported only when exporting: loading the SDK and exporter would slow every start, and most never export.
  const [{ NodeSdk }, { OTLPTraceExporter }, { BatchSpanProcessor }] = yield* Effect.promise(() =>
    Promise.all([
      import("@effect/opentelemetry"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/sdk-trace-base")
    ])
  )
  return NodeSdk.layer(() => ({
    resource: { serviceName: config.serviceName },
    spanProcessor: new BatchSpanProcessor(new OTLPTraceExporter({ url }))
  }))
}))
