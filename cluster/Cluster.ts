import { RunnerAddress, ShardingConfig, SingleRunner, SqlMessageStorage, SqlRunnerStorage } from "@effect/cluster"
import { NodeClusterSocket } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../src/Config.js"
import { RENDER_SHARD_GROUP } from "../src/renders/RenderRunnerEntity.js"
import { withStartupLock } from "../src/sql/Database.js"
import { GroupCommitStorage } from "./GroupCommitStorage.js"

/**
 * Tuned from the measured defaults (33 s failover, timers up to 10 s late): a dead node's shards move within
 * ~10 s and a due scheduled message is picked up within 0.5 s. `shardsPerGroup` must never change.
 * The lock refresh is also its own timeout: at 2 s a busy machine (a refresh statement waiting over 2 s for the CPU)
 * made a live node drop every shard and interrupt its entities; 3 s still refreshes three times per expiration.
 */
export const shardingTuning = {
  shardsPerGroup: 300,
  shardLockExpiration: "10 seconds",
  shardLockRefreshInterval: "3 seconds",
  refreshAssignmentsInterval: "2 seconds",
  runnerHealthCheckInterval: "5 seconds",
  entityMessagePollInterval: "500 millis",
  entityReplyPollInterval: "200 millis",
  sendRetryInterval: "100 millis",
  entityTerminationTimeout: "10 seconds",
  entityMaxIdleTime: "1 minute",
  preemptiveShutdown: true,
  availableShardGroups: ["default", RENDER_SHARD_GROUP]
} as const

/** Every node serves the default group; only a node that draws (RENDER_SLOTS > 0) serves the render runners' group. */
const shardGroupsOf = (renderSlots: number) => ({
  assignedShardGroups: renderSlots > 0 ? ["default", RENDER_SHARD_GROUP] : ["default"]
})

/**
 * One index of ours on the cluster's tables. The storage read loop asks for the unprocessed messages of this node's
 * shards; the library's indexes lead with the shard and cover every message kept for retention, and PostgreSQL chose
 * to scan the whole table (8 ms at 20,000 messages, growing with them). A partial index holds only what is
 * unprocessed, so the read costs what the backlog is, not what the history is (0.2 ms at 20,000; the storage keeps
 * statistics).
 */
const unprocessedIndex = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`CREATE INDEX IF NOT EXISTS cluster_messages_unprocessed_idx ON cluster_messages (shard_id) WHERE NOT processed`
).pipe(Effect.orDie)

/**
 * With DATABASE_URL every node is a socket runner with SQL storage; on the embedded default one in-process runner
 * (PGlite is a single session, so shard locks would mean nothing across connections).
 */
export const ClusterLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  if (Option.isNone(config.databaseUrl)) {
    return SingleRunner.layer({
      shardingConfig: { ...shardingTuning, ...shardGroupsOf(config.renderSlots) },
      runnerStorage: "memory"
    }).pipe(
      Layer.tap(() => unprocessedIndex)
    )
  }
  // Creates the cluster's own tables once, under the start-up lock, before the runner races anyone for them.
  yield* withStartupLock(
    Effect.scoped(Layer.build(
      Layer.mergeAll(SqlMessageStorage.layer, SqlRunnerStorage.layer).pipe(
        Layer.provide(ShardingConfig.layer(shardingTuning))
      )
    )).pipe(Effect.zipRight(unprocessedIndex))
  )
  const address = RunnerAddress.make(config.runnerHost, config.runnerPort)
  const shardingConfig = {
    ...shardingTuning,
    ...shardGroupsOf(config.renderSlots),
    runnerAddress: Option.some(address),
    // Bound to one interface: the runner port takes entity messages without authentication (docs/operating.md "The runner port").
    runnerListenAddress: Option.some(RunnerAddress.make(config.runnerListenHost, config.runnerPort))
  }
  const storage = Layer.merge(GroupCommitStorage, Layer.orDie(SqlRunnerStorage.layer)).pipe(
    Layer.provide(ShardingConfig.layer(shardingConfig))
  )
  return NodeClusterSocket.layer({ storage: "byo", shardingConfig }).pipe(Layer.provideMerge(storage))
}))
