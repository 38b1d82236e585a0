import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option, Schedule, type Scope, Stream } from "effect"
import { AppConfig } from "../Config.js"

const CHANNEL = "clipwright_config_changes"

/** Every workspace (the empty string): what a listener hears when changes may have been missed. */
export const EVERY_WORKSPACE = ""

type Listener = (workspaceId: string) => void

/**
 * Word that a workspace's configuration (streams, channels, subscriptions, feed switches) changed, on every node:
 * what lets the ingest path keep that configuration in memory instead of reading it for every event. The writer
 * announces after its transaction committed; this node's listeners hear it at once, other nodes' through PostgreSQL
 * (`pg_notify`, LISTEN on its own connection) a few milliseconds later. The embedded default is one node, so it
 * needs no LISTEN (and its single connection could not spare one).
 */
export class ConfigChanges extends Context.Tag("clipwright/sql/ConfigChanges")<ConfigChanges, {
  /** After a committed change of the workspace's configuration. */
  readonly announce: (workspaceId: string) => Effect.Effect<void>
  /** Calls `listener` with each changed workspace (or EVERY_WORKSPACE) until the scope closes. */
  readonly listen: (listener: Listener) => Effect.Effect<void, never, Scope.Scope>
}>() {
  static readonly layer = Layer.scoped(
    ConfigChanges,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const sql = yield* PgClient.PgClient
      const listeners = new Set<Listener>()
      const tell = (workspaceId: string) => listeners.forEach((listener) => listener(workspaceId))
      const shared = Option.isSome(config.databaseUrl)

      if (shared) {
        // Each (re)connection may have missed notifications: everything is dropped when it starts listening.
        const hear = Stream.runForEach(
          Stream.concat(Stream.succeed(EVERY_WORKSPACE), sql.listen(CHANNEL)),
          (workspaceId) => Effect.sync(() => tell(workspaceId))
        )
        yield* Effect.forkScoped(hear.pipe(
          Effect.tapErrorCause((cause) => Effect.logWarning("config changes: listening failed; retrying", cause)),
          Effect.retry(Schedule.spaced("1 second")),
          Effect.withTracerEnabled(false)
        ))
      }

      return {
        announce: (workspaceId) =>
          Effect.sync(() => tell(workspaceId)).pipe(
            Effect.zipRight(
              shared
                ? sql`SELECT pg_notify(${CHANNEL}, ${workspaceId})`.pipe(
                  Effect.catchAllCause((cause) => Effect.logWarning("config changes: notify failed", cause))
                )
                : Effect.void
            ),
            Effect.asVoid
          ),
        listen: (listener) =>
          Effect.acquireRelease(
            Effect.sync(() => listeners.add(listener)),
            () => Effect.sync(() => listeners.delete(listener))
          )
      }
    })
  )
}
