import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { Identity } from "./Identity.js"

export const AdminHttpLive = HttpApiBuilder.group(ClipwrightApi, "admin", (handlers) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    return handlers
      .handle("createWorkspace", ({ payload }) => identity.createWorkspace(payload.name, payload.ownerEmail ?? null))
      .handle("createKey", ({ path, payload }) =>
        identity.createKey(path.accountId, payload.scopes, payload.name ?? null))
      .handle("revokeKey", ({ path }) =>
        identity.revokeKey(path.accountId, path.keyId))
      .handle("setWebhook", ({ path, payload }) => identity.setWebhook(path.accountId, payload.url))
      .handle("addMember", ({ path, payload }) => identity.addMember(path.accountId, payload.email, payload.role))
      .handle("createPlatformKey", ({ payload }) => identity.createPlatformKey(payload.name ?? null))
      .handle("listPlatformKeys", () => identity.listPlatformKeys())
      .handle("revokePlatformKey", ({ path }) => identity.revokePlatformKey(path.keyId))
  }))
