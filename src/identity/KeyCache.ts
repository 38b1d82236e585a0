import { Clock, Effect, type Option } from "effect"
import type { Principal } from "../domain/Principal.js"

const MAX_ENTRIES = 10_000

/**
 * Key lookups are on the path of every request. A hit is answered synchronously (an Effect `Cache` costs a
 * fiber handshake per get, which showed in profiles); entries live briefly so a revocation on another node
 * takes effect within the TTL, and this node's own revocations clear it at once.
 */
export const makeKeyCache = <E>(ttlMs: number, lookup: (hash: string) => Effect.Effect<Option.Option<Principal>, E>) => {
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
  return { get, clear: Effect.sync(() => entries.clear()) }
}
