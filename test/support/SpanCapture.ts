import { NodeSdk } from "@effect/opentelemetry"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"

/** Tracing for a node built in the test: every span goes to `exporter`, in memory, for the test to read. */
export const capturedSpans = () => {
  const exporter = new InMemorySpanExporter()
  const tracing = NodeSdk.layer(() => ({
    resource: { serviceName: "clipwright-test" },
    spanProcessor: new SimpleSpanProcessor(exporter)
  }))
  return { exporter, tracing }
}
