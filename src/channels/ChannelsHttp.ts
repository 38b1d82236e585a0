import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { inWorkspace } from "../domain/Principal.js"
import type { Channel } from "./Channel.js"
import { Channels } from "./Channels.js"
import { Subscriptions } from "./Subscriptions.js"

export const ChannelsHttpLive = HttpApiBuilder.group(ClipwrightApi, "channels", (handlers) =>
  Effect.gen(function*() {
    const channels = yield* Channels
    const subscriptions = yield* Subscriptions
    const answer = Effect.map((channel: Channel) => ({ channel }))
    return handlers
      .handle("list", () => inWorkspace(channels.list))
      .handle("surfaces", () => channels.surfaces())
      .handle(
        "create",
        ({ payload }) => inWorkspace((workspaceId) => channels.create(workspaceId, payload)).pipe(answer)
      )
      .handle(
        "update",
        ({ path, payload }) => inWorkspace((workspaceId) => channels.update(workspaceId, path.id, payload)).pipe(answer)
      )
      .handle("delete", ({ path }) => inWorkspace((workspaceId) => channels.remove(workspaceId, path.id)))
      .handle(
        "subscribe",
        ({ path, payload }) =>
          inWorkspace((workspaceId) => subscriptions.add(workspaceId, path.id, payload)).pipe(answer)
      )
      .handle(
        "changeSubscription",
        ({ path, payload }) =>
          inWorkspace((workspaceId) => subscriptions.change(workspaceId, path.id, path.subId, payload)).pipe(answer)
      )
      .handle(
        "unsubscribe",
        ({ path }) => inWorkspace((workspaceId) => subscriptions.remove(workspaceId, path.id, path.subId)).pipe(answer)
      )
  }))
