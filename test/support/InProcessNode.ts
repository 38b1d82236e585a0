import { Effect, Layer, Option } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { AppConfig } from "../../src/Config.js"
import { NodeLive } from "../../src/Server.js"
import { freePort } from "./Node.js"

export interface InProcessNodeOptions<A, E> {
  readonly databaseUrl: string
  /** Names the admin token (`<name>-admin-token-of-24-chars`) and the temporary DATA_DIR. */
  readonly name: string
  readonly smtpUrl?: string
  /** The test's own OpenTelemetry layer (an in-memory exporter or reader), to read what the node exports. */
  readonly telemetry: Layer.Layer<A, E>
}

/**
 * A node built in the test's own process rather than started as one, on free ports with a temporary DATA_DIR: what a
 * test needs that reads the node's spans or metrics through an exporter of its own. It runs until the scope closes.
 */
export const inProcessNode = <A, E>(options: InProcessNodeOptions<A, E>) =>
  Effect.gen(function*() {
    const port = yield* Effect.promise(freePort)
    const url = `http://127.0.0.1:${port}`
    const adminToken = `${options.name}-admin-token-of-24-chars`
    const settings = {
      port,
      host: "127.0.0.1",
      databaseUrl: Option.some(options.databaseUrl),
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), `clipwright-${options.name}-`)),
      publicBaseUrl: url,
      adminToken: Option.some(adminToken),
      smtpUrl: Option.fromNullable(options.smtpUrl),
      allowPrivateUrls: true,
      deliveryRetrySchedule: "1s",
      runnerHost: "127.0.0.1",
      runnerListenHost: "127.0.0.1",
      runnerPort: yield* Effect.promise(freePort),
      renderSlots: 1,
      otlpEndpoint: Option.none(),
      serviceName: "clipwright-test"
    }
    yield* Layer.build(NodeLive.pipe(Layer.provide(AppConfig.make(settings)), Layer.provide(options.telemetry)))
    return { url, adminToken }
  })
