import { Context, Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { AppConfig } from "../Config.js"
import { Conflict, detailAt, NotFound, SchemaValidation } from "../domain/Errors.js"
import { PLATFORM_SCOPE, workspaceScopes } from "../domain/Permissions.js"
import { type Principal, WorkspaceId } from "../domain/Principal.js"
import { newUlid } from "../domain/Ulid.js"
import { checkUrl } from "../domain/UrlPolicy.js"
import { ApiKeys } from "../http/ApiKeys.js"
import { ConfigChanges, EVERY_WORKSPACE } from "../sql/ConfigChanges.js"
import { isLive } from "./ApiKey.js"
import { IdentityRepo } from "./IdentityRepo.js"
import { makeKeyCache } from "./KeyCache.js"
import type { MemberRole } from "./Member.js"

export const hashKey = (apiKey: string) => crypto.createHash("sha256").update(apiKey).digest("hex")

const newApiKey = () => "cw_" + crypto.randomBytes(32).toString("base64url")

const KEY_CACHE_TTL_MS = 2000

const make = Effect.gen(function*() {
  const repo = yield* IdentityRepo
  const config = yield* AppConfig
  const changes = yield* ConfigChanges

  const lookup = (hash: string) =>
    repo.findKeyByHash(hash).pipe(
      Effect.map(Option.filter(isLive)),
      Effect.map(Option.map((key): Principal => ({
        kind: key.kind,
        workspaceId: WorkspaceId.make(key.workspaceId ?? ""),
        workspaceName: key.workspaceName ?? "",
        keyId: key.id,
        scopes: key.scopes
      })))
    )
  const cache = makeKeyCache(KEY_CACHE_TTL_MS, lookup)
  yield* changes.listen(cache.forget)
  /**
   * A revocation is announced to every node, and heard within milliseconds; but a request already reading a node's
   * cache may still be answered from it. Every entry read before the revocation committed has expired one TTL later,
   * so answering only then makes `{ revoked: true }` mean the key is refused on every node from then on.
   */
  const revokedEverywhere = (workspaceId: string) =>
    Effect.zipRight(changes.announce(workspaceId), Effect.sleep(KEY_CACHE_TTL_MS))

  const requireWorkspace = (accountId: WorkspaceId) =>
    repo.findWorkspace(accountId).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `No workspace ${accountId}.` })),
        onSome: Effect.succeed
      }))
    )

  const createWorkspace = Effect.fn("Identity.createWorkspace")(function*(name: string, ownerEmail: string | null) {
    const id = WorkspaceId.make(newUlid())
    yield* repo.insertWorkspace({ id, name, ownerEmail })
    if (ownerEmail !== null) {
      yield* repo.insertMember({ id: newUlid(), workspaceId: id, email: ownerEmail, role: "owner" })
    }
    yield* Effect.logInfo("Workspace created").pipe(Effect.annotateLogs({ accountId: id }))
    return { accountId: id, accountName: name }
  })

  const createKey = Effect.fn("Identity.createKey")(
    function*(accountId: WorkspaceId, scopes: ReadonlyArray<string>, name: string | null) {
      yield* requireWorkspace(accountId)
      const unknown = scopes.flatMap((s, i) => s === "*" || workspaceScopes.includes(s) ? [] : [i])
      if (unknown.length > 0) {
        return yield* new SchemaValidation({
          message: "Unknown permission in scopes.",
          details: unknown.map((i) =>
            detailAt(["scopes", i], `"${scopes[i]}" is not a permission; use <area>:<read|write> or "*".`, "enum")
          )
        })
      }
      const apiKey = newApiKey()
      const keyId = newUlid()
      yield* repo.insertKey({
        id: keyId,
        workspaceId: accountId,
        kind: "apikey",
        name,
        keyHash: hashKey(apiKey),
        scopes
      })
      // An audit line for operators; the key itself is shown once, to the caller, and never logged.
      yield* Effect.logInfo("API key created").pipe(Effect.annotateLogs({ accountId, keyId }))
      return { keyId, apiKey, scopes }
    }
  )

  const revokeKey = Effect.fn("Identity.revokeKey")(function*(accountId: WorkspaceId, keyId: string) {
    const revoked = yield* repo.revokeKey(accountId, keyId)
    if (!revoked) return yield* new NotFound({ message: `No key ${keyId} in workspace ${accountId}.` })
    yield* revokedEverywhere(accountId)
    yield* Effect.logInfo("API key revoked").pipe(Effect.annotateLogs({ accountId, keyId }))
    return { revoked: true as const }
  })

  const createPlatformKey = Effect.fn("Identity.createPlatformKey")(function*(name: string | null) {
    const apiKey = newApiKey()
    const keyId = newUlid()
    yield* repo.insertKey({
      id: keyId,
      workspaceId: null,
      kind: "platform",
      name,
      keyHash: hashKey(apiKey),
      scopes: [PLATFORM_SCOPE]
    })
    yield* Effect.logInfo("Platform key created").pipe(Effect.annotateLogs({ keyId }))
    return { keyId, apiKey }
  })

  const listPlatformKeys = Effect.fn("Identity.listPlatformKeys")(function*() {
    const keys = yield* repo.listPlatformKeys
    return {
      keys: keys.map((key) => ({ keyId: key.id, name: key.name, createdAt: key.createdAt, revokedAt: key.revokedAt }))
    }
  })

  const revokePlatformKey = Effect.fn("Identity.revokePlatformKey")(function*(keyId: string) {
    const revoked = yield* repo.revokePlatformKey(keyId)
    if (!revoked) return yield* new NotFound({ message: `No platform key ${keyId}.` })
    // A platform key's principal has no workspace: every node forgets every cached key.
    yield* revokedEverywhere(EVERY_WORKSPACE)
    yield* Effect.logInfo("Platform key revoked").pipe(Effect.annotateLogs({ keyId }))
    return { revoked: true as const }
  })

  const setWebhook = Effect.fn("Identity.setWebhook")(function*(accountId: WorkspaceId, url: string) {
    yield* requireWorkspace(accountId)
    yield* checkUrl(url, { allowPrivate: config.allowPrivateUrls, at: ["url"] })
    const secret = "whsec_" + crypto.randomBytes(32).toString("base64")
    yield* repo.setWebhook(accountId, url, secret)
    return { url, secret }
  })

  const addMember = Effect.fn("Identity.addMember")(function*(accountId: WorkspaceId, email: string, role: MemberRole) {
    yield* requireWorkspace(accountId)
    const member = { id: newUlid(), workspaceId: accountId, email, role }
    const added = yield* repo.insertMember(member)
    if (!added) return yield* new Conflict({ message: `${email} is already a member of this workspace.` })
    return { member: { id: member.id, email, role } }
  })

  return {
    authenticate: (apiKey: string) => cache.get(hashKey(apiKey)),
    findWorkspace: repo.findWorkspace,
    requireWorkspace,
    countMembers: repo.countMembers,
    listMembers: repo.listMembers,
    setLimits: repo.setLimits,
    createWorkspace,
    createKey,
    revokeKey,
    createPlatformKey,
    listPlatformKeys,
    revokePlatformKey,
    setWebhook,
    addMember
  }
})

export class Identity extends Context.Tag("clipwright/identity/Identity")<
  Identity,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.scoped(Identity, make)
  /** The edge resolves bearer keys through this area. */
  static readonly apiKeys = Layer.effect(
    ApiKeys,
    Effect.map(Identity, (identity) => ({ authenticate: identity.authenticate }))
  )
}
