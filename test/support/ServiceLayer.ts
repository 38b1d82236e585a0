import { SingleRunner } from "@effect/cluster"
import { Effect, Layer, Option } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { AppConfig, type AppSettings } from "../../src/Config.js"
import { HandOverLive } from "../../src/delivery/handover/HandOverLive.js"
import { Identity } from "../../src/identity/Identity.js"
import { ChannelClipListeners } from "../../src/publishing/states/ChannelClipListeners.js"
import { JobDispatcher } from "../../src/publishing/states/JobDispatcher.js"
import { JobRepo } from "../../src/publishing/states/JobRepo.js"
import { JobStepsLive } from "../../src/publishing/states/JobStepsLive.js"
import { RenderRepo } from "../../src/renders/RenderRepo.js"
import { PipelineRenders } from "../../src/renders/runner/PipelineRenders.js"
import { DatabaseLive } from "../../src/sql/Database.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { createTestDatabase } from "./Database.js"

/** Settings of a node in a test: a fresh DATA_DIR, loopback addresses, two render slots. */
export const testSettings = (databaseUrl: string, dataDir: string): AppSettings => ({
  port: 0,
  host: "127.0.0.1",
  databaseUrl: Option.some(databaseUrl),
  dataDir,
  publicBaseUrl: "http://127.0.0.1:0",
  adminToken: Option.some("test-admin-token-of-24-chars"),
  smtpUrl: Option.none(),
  allowPrivateUrls: true,
  deliveryRetrySchedule: "1s,1s",
  runnerHost: "127.0.0.1",
  runnerListenHost: "127.0.0.1",
  runnerPort: 0,
  renderSlots: 2,
  otlpEndpoint: Option.none(),
  serviceName: "clipwright-test"
})

/**
 * For service-level tests (`it.layer` of @effect/vitest): a fresh, migrated database on the local PostgreSQL server,
 * the settings, and one in-process cluster runner (entity clients work; persisted messages go to that database).
 * The database is dropped when the layer is released. `settings` change the test settings (a test-only order, say).
 */
export const serviceTestLayer = (label: string, settings: Partial<AppSettings> = {}) =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.promise(() => createTestDatabase(label, undefined, { migrated: true })),
      (created) => Effect.promise(() => created.drop())
    )
    const dataDir = yield* Effect.acquireRelease(
      Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), `cw-${label}-`))),
      (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
    )
    const config = AppConfig.make({ ...testSettings(db.url, dataDir), ...settings })
    const runner = SingleRunner.layer({
      shardingConfig: { entityMessagePollInterval: "100 millis" },
      runnerStorage: "memory"
    })
    // Rendered clips tell channels when one is deleted (the port every node wires under its areas).
    return ChannelClipListeners.pipe(
      Layer.provideMerge(runner),
      Layer.provideMerge(DatabaseLive),
      Layer.provideMerge(config)
    )
  }))

/** A new workspace with no owner email (needs the `Identity` service in the test's layer). */
export const newWorkspace = (name: string) =>
  Effect.flatMap(Identity, (identity) => identity.createWorkspace(name, null)).pipe(Effect.map((c) => c.accountId))

/**
 * What a channel entity needs for its jobs, for service tests that host it: the job rows, the pipeline's renders,
 * hand-over (updates and deletes queue deliveries), the job dispatcher (reposts wake it) and the steps themselves
 * (publishing's answer to the entity's JobSteps port).
 */
export const ChannelJobsDeps = JobStepsLive.pipe(
  Layer.provideMerge(Layer.mergeAll(
    PipelineRenders.layer.pipe(Layer.provide(RenderRepo.layer)),
    HandOverLive,
    JobDispatcher.layer
  )),
  Layer.provideMerge(JobRepo.layer),
  Layer.provideMerge(LocalBlobStorage.layer)
)
