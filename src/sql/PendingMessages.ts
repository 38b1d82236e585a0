import type { Statement } from "@effect/sql"
import type { SqlClient } from "@effect/sql/SqlClient"

/**
 * A condition on the cluster's message table (the library's `cluster_messages`, see cluster/GroupCommitStorage.ts):
 * an entity of `entityType` whose id is in `idColumn` has a message not yet answered, so some node will (or does)
 * handle it. The sweep for work nobody will pick up again asks it (src/renders/runner/OrphanRenders.ts); it reads the
 * unprocessed messages through cluster/Cluster.ts's partial index, so it costs what the backlog is (no index of its
 * own: a second partial index over the same rows drew the storage read loop's plan away from the one it is tuned for).
 */
export const hasPendingMessage = (sql: SqlClient, entityType: string, idColumn: string): Statement.Fragment =>
  sql`EXISTS (SELECT 1 FROM cluster_messages m
    WHERE m.entity_type = ${entityType} AND m.entity_id = ${sql(idColumn)} AND NOT m.processed)`
