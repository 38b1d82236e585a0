import { FetchHttpClient } from "@effect/platform"
import { Config, Effect, Layer, Option } from "effect"
import { AppConfig } from "../Config.js"

/**
 * Every Effect metric of the process (docs/operating.md "Metrics") goes to `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/metrics` as OTLP/HTTP
 * JSON, every OTEL_METRIC_EXPORT_INTERVAL ms (default 10 s: a fault shows within one interval). @effect/opentelemetry's
 * own exporter reads Effect's registry directly; the OpenTelemetry SDK exporter would add a second copy of the
 * OpenTelemetry packages, since none of its releases matches the installed ones.
 */
export const MetricsExportLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  if (Option.isNone(config.otlpEndpoint)) return Layer.empty
  const intervalMs = yield* Config.integer("OTEL_METRIC_EXPORT_INTERVAL").pipe(Config.withDefault(10_000))
  const url = `${config.otlpEndpoint.value.replace(/\/+$/, "")}/v1/metrics`
  const [OtlpMetrics, OtlpSerialization] = yield* Effect.promise(() =>
    Promise.all([import("@effect/opentelemetry/OtlpMetrics"), import("@effect/opentelemetry/OtlpSerialization")])
  )
  return OtlpMetrics.layer({
    url,
    // Each node reports the same names; the runner address tells them apart (per-node entities, render times).
    resource: {
      serviceName: config.serviceName,
      attributes: { "service.instance.id": `${config.runnerHost}:${config.runnerPort}` }
    },
    exportInterval: `${intervalMs} millis`
  }).pipe(Layer.provide(Layer.merge(FetchHttpClient.layer, OtlpSerialization.layerJson)))
}))
