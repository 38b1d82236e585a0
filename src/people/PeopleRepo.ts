import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"

const Role = Schema.Literal("owner", "operations", "member")

/** One workspace a person belongs to, and their role there. */
export const Membership = Schema.Struct({ workspaceId: WorkspaceId, workspaceName: Schema.String, role: Role })
export type Membership = typeof Membership.Type

/** A live session: whose, in which workspace now, and whether its last-seen time is worth refreshing. */
export const LiveSession = Schema.Struct({
  email: Schema.String,
  workspaceId: WorkspaceId,
  workspaceName: Schema.String,
  role: Role,
  stale: Schema.Boolean
})
export type LiveSession = typeof LiveSession.Type

const IDLE = "7 days"
const ABSOLUTE = "30 days"

/**
 * Sign-in links and sessions, found by the hash of what the browser holds (never the value itself). A session
 * belongs to one workspace at a time; its role is read from `members` on every request, so a person removed or
 * demoted loses what they lost at once.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // By address, across workspaces: the person is who tells which workspaces they may enter.
  const membershipsOf = SqlSchema.findAll({
    Request: Schema.String,
    Result: Membership,
    execute: (email) =>
      sql`SELECT m.workspace_id, w.name AS workspace_name, m.role FROM members m JOIN workspaces w ON w.id = m.workspace_id
          WHERE lower(m.email) = lower(${email}) ORDER BY w.created_at, w.id`
  })
  const insertLink = SqlSchema.void({
    Request: Schema.Struct({
      tokenHash: Schema.String,
      email: Schema.String,
      returnTo: Schema.String,
      ttlMs: Schema.Number
    }),
    execute: ({ email, returnTo, tokenHash, ttlMs }) =>
      sql`INSERT INTO sign_in_links (token_hash, email, return_to, expires_at)
          VALUES (${tokenHash}, ${email}, ${returnTo}, now() + ${ttlMs} * interval '1 millisecond')`
  })
  const liveLink = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ email: Schema.String }),
    execute: (tokenHash) =>
      sql`SELECT email FROM sign_in_links WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > now()`
  })
  // One statement: of two clicks racing, one spends the link and the other finds it spent.
  const spendLink = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ email: Schema.String, returnTo: Schema.String }),
    execute: (tokenHash) =>
      sql`UPDATE sign_in_links SET used_at = now()
          WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > now() RETURNING email, return_to`
  })
  const insertSession = SqlSchema.void({
    Request: Schema.Struct({ idHash: Schema.String, email: Schema.String, workspaceId: WorkspaceId }),
    execute: ({ email, idHash, workspaceId }) =>
      sql`INSERT INTO sessions (id_hash, email, workspace_id) VALUES (${idHash}, ${email}, ${workspaceId})`
  })
  const findSession = SqlSchema.findOne({
    Request: Schema.String,
    Result: LiveSession,
    execute: (idHash) =>
      sql`SELECT s.email, s.workspace_id, w.name AS workspace_name, m.role,
            s.last_seen_at < now() - interval '1 minute' AS stale
          FROM sessions s
          JOIN members m ON m.workspace_id = s.workspace_id AND lower(m.email) = lower(s.email)
          JOIN workspaces w ON w.id = s.workspace_id
          WHERE s.id_hash = ${idHash} AND s.ended_at IS NULL
            AND s.last_seen_at > now() - ${IDLE}::interval AND s.created_at > now() - ${ABSOLUTE}::interval`
  })
  const touch = SqlSchema.void({
    Request: Schema.String,
    execute: (idHash) => sql`UPDATE sessions SET last_seen_at = now() WHERE id_hash = ${idHash} AND ended_at IS NULL`
  })
  const endSession = SqlSchema.void({
    Request: Schema.String,
    execute: (idHash) => sql`UPDATE sessions SET ended_at = coalesce(ended_at, now()) WHERE id_hash = ${idHash}`
  })
  const switchWorkspace = SqlSchema.findOne({
    Request: Schema.Struct({ idHash: Schema.String, workspaceId: WorkspaceId }),
    Result: Schema.Struct({ idHash: Schema.String }),
    execute: ({ idHash, workspaceId }) =>
      sql`UPDATE sessions s SET workspace_id = ${workspaceId}
          WHERE s.id_hash = ${idHash} AND s.ended_at IS NULL AND EXISTS (
            SELECT 1 FROM members m WHERE m.workspace_id = ${workspaceId} AND lower(m.email) = lower(s.email))
          RETURNING s.id_hash`
  })
  // Rows past any use: links a day after they expired, sessions a day after they ended either way.
  const sweep = sql`
    WITH links AS (DELETE FROM sign_in_links WHERE expires_at < now() - interval '1 day')
    DELETE FROM sessions WHERE coalesce(ended_at, least(last_seen_at + ${IDLE}::interval,
      created_at + ${ABSOLUTE}::interval)) < now() - interval '1 day'`

  return {
    membershipsOf: (email: string) => Effect.orDie(membershipsOf(email)),
    insertLink: (link: { tokenHash: string; email: string; returnTo: string; ttlMs: number }) =>
      Effect.orDie(insertLink(link)),
    isLinkLive: (tokenHash: string) => Effect.orDie(Effect.map(liveLink(tokenHash), Option.isSome)),
    spendLink: (tokenHash: string) => Effect.orDie(spendLink(tokenHash)),
    insertSession: (session: { idHash: string; email: string; workspaceId: WorkspaceId }) =>
      Effect.orDie(insertSession(session)),
    findSession: (idHash: string) => Effect.orDie(findSession(idHash)),
    touch: (idHash: string) => Effect.orDie(touch(idHash)),
    endSession: (idHash: string) => Effect.orDie(endSession(idHash)),
    /** False when the session is over or the person is no member of that workspace. */
    switchWorkspace: (idHash: string, workspaceId: WorkspaceId) =>
      Effect.orDie(Effect.map(switchWorkspace({ idHash, workspaceId }), Option.isSome)),
    sweep: Effect.orDie(Effect.asVoid(sweep))
  }
})

export class PeopleRepo extends Context.Tag("clipwright/people/PeopleRepo")<
  PeopleRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(PeopleRepo, make)
}
