import { Config, Context, Effect, Layer, Option } from "effect"
import * as os from "node:os"
import * as path from "node:path"
import { resolveRunnerListenHost } from "./domain/RunnerListenHost.js"

const DEFAULT_RETRY_SCHEDULE = "5s,5m,30m,2h,5h,10h,10h"

/** Shorter tokens are within reach of guessing over the network; `openssl rand -hex 24` gives 48 characters. */
export const ADMIN_TOKEN_MIN_LENGTH = 24

/** Every setting of CONTRACT.md "Environment", read once at start-up. */
export interface AppSettings {
  readonly port: number
  readonly host: string
  readonly databaseUrl: Option.Option<string>
  readonly dataDir: string
  readonly publicBaseUrl: string
  readonly adminToken: Option.Option<string>
  readonly smtpUrl: Option.Option<string>
  readonly allowPrivateUrls: boolean
  readonly deliveryRetrySchedule: string
  readonly runnerHost: string
  readonly runnerPort: number
  /** The address the cluster runner binds (RUNNER_LISTEN_HOST, else RUNNER_HOST's address); used with DATABASE_URL. */
  readonly runnerListenHost: string
  readonly renderSlots: number
  readonly otlpEndpoint: Option.Option<string>
  readonly serviceName: string
  /** Tests and benches only (TEST_CLOCK_RATE, TEST_CLOCK_ORIGIN): webhook signing time runs `rate` times fast. */
  readonly compressedClock?: CompressedClock | undefined
  /** Tests and benches only (TEST_RENDER_ORDER=arrival): the render queue served in arrival order, not in turns. */
  readonly renderOrder?: RenderOrder | undefined
}

/** The render queue's order: workspaces taking turns, or (to measure what that costs) plain arrival order. */
export type RenderOrder = "fair" | "arrival"

export interface CompressedClock {
  /** Epoch milliseconds where compressed and real time agree. */
  readonly origin: number
  readonly rate: number
}

const settingsConfig = Effect.gen(function*() {
  const port = yield* Config.integer("PORT").pipe(Config.withDefault(8080))
  const dataDir = yield* Config.string("DATA_DIR").pipe(Config.withDefault("./data"))
  const publicBaseUrl = yield* Config.string("PUBLIC_BASE_URL").pipe(Config.withDefault(`http://localhost:${port}`))
  const databaseUrl = yield* Config.option(Config.string("DATABASE_URL")).pipe(
    Effect.map(Option.filter((s) => s !== ""))
  )
  const runnerHost = yield* Config.string("RUNNER_HOST").pipe(Config.withDefault("localhost"))
  const listenHost = yield* Config.option(Config.string("RUNNER_LISTEN_HOST")).pipe(
    Effect.map(Option.filter((s) => s !== ""))
  )
  return {
    port,
    host: yield* Config.string("HOST").pipe(Config.withDefault("0.0.0.0")),
    databaseUrl,
    dataDir: path.resolve(dataDir),
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ""),
    adminToken: yield* Config.option(
      Config.string("ADMIN_TOKEN").pipe(Config.validate({
        message:
          `must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters (e.g. \`openssl rand -hex 24\`), or unset for a ` +
          "random one kept in DATA_DIR/admin-token",
        validation: (token) => token === "" || token.length >= ADMIN_TOKEN_MIN_LENGTH
      }))
    ).pipe(Effect.map(Option.filter((s) => s !== ""))),
    smtpUrl: yield* Config.option(Config.string("SMTP_URL")),
    allowPrivateUrls: yield* Config.boolean("ALLOW_PRIVATE_URLS").pipe(Config.withDefault(false)),
    deliveryRetrySchedule: yield* Config.string("DELIVERY_RETRY_SCHEDULE").pipe(
      Config.withDefault(DEFAULT_RETRY_SCHEDULE)
    ),
    runnerHost,
    runnerPort: yield* Config.integer("RUNNER_PORT").pipe(Config.withDefault(34431)),
    // Only a socket runner (with DATABASE_URL) listens; the embedded default's runner is in-process.
    runnerListenHost: Option.isSome(databaseUrl)
      ? yield* resolveRunnerListenHost(listenHost, runnerHost)
      : Option.getOrElse(listenHost, () => runnerHost),
    renderSlots: yield* Config.integer("RENDER_SLOTS").pipe(Config.withDefault(os.availableParallelism())),
    otlpEndpoint: yield* Config.option(Config.string("OTEL_EXPORTER_OTLP_ENDPOINT")),
    serviceName: yield* Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("clipwright")),
    compressedClock: Option.getOrUndefined(
      yield* Config.option(Config.all({
        rate: Config.number("TEST_CLOCK_RATE").pipe(
          Config.validate({ message: "must be above 0", validation: (n) => n > 0 })
        ),
        origin: Config.integer("TEST_CLOCK_ORIGIN")
      }))
    ),
    renderOrder: yield* Config.literal("fair", "arrival")("TEST_RENDER_ORDER").pipe(Config.withDefault("fair"))
  } satisfies AppSettings
})

export class AppConfig extends Context.Tag("clipwright/AppConfig")<AppConfig, AppSettings>() {
  static readonly layer = Layer.effect(AppConfig, settingsConfig)
  static readonly make = (settings: AppSettings) => Layer.succeed(AppConfig, settings)
}
