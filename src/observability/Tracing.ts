import { NodeSdk } from "@effect/opentelemetry"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../Config.js"

/** OTLP/HTTP export when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise spans stay in-process (ids still flow). */
export const TracingLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  if (Option.isNone(config.otlpEndpoint)) return Layer.empty
  const url = `${config.otlpEndpoint.value.replace(/\/+$/, "")}/v1/traces`
  return NodeSdk.layer(() => ({
    resource: { serviceName: config.serviceName },
    spanProcessor: new BatchSpanProcessor(new OTLPTraceExporter({ url }))
  }))
}))
