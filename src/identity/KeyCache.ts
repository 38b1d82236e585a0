import { Clock, Effect, type Option } from "effect"
import type { Principal } from "../domain/Principal.js"
import { EVERY_WORKSPACE } from "../sql/ConfigChanges.js"

const MAX_ENTRIES = 10_000

/**
 * Key lookups are on the path of every request. A hit is answered synchronously (an Effect `Cache` costs a
 * fiber handshake per get, which showed in profiles). A revocation is announced to every node (`ConfigChanges`),
 * which forgets the workspace's keys (every key for a platform key, whose principal has no workspace); entries
 * also live briefly, so a node that missed the word still stops honouring the key within the TTL.
 */
export const makeKeyCache = <E>(
  ttlMs: number,
  lookup: (hash: string) => Effect.Effect<Option.Option<Principal>, E>
) => {
  const entries = new Map<string, { readonly principal: Option.Option<Principal>; readonly at: number }>()
  const get = (hash: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const hit = entries.get(hash)
      if (hit !== undefined && now - hit.at < ttlMs) return Effect.succeed(hit.principal)
      return Effect.tap(lookup(hash), (principal) => {
        if (entries.size >= MAX_ENTRIES) entries.clear()
        entries.set(hash, { principal, at: now })
      })
    })
  const forget = (workspaceId: string) => {
    if (workspaceId === EVERY_WORKSPACE) return entries.clear()
    for (const [hash, entry] of entries) {
      if (entry.principal._tag === "Some" && entry.principal.value.workspaceId === workspaceId) entries.delete(hash)
    }
  }
  return { get, forget }
}
