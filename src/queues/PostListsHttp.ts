import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { inWorkspace } from "../domain/Principal.js"
import { PostLists } from "./PostLists.js"

export const PostListsHttpLive = HttpApiBuilder.group(ClipwrightApi, "queues", (handlers) =>
  Effect.gen(function*() {
    const lists = yield* PostLists
    return handlers
      .handle("list", () => inWorkspace(lists.list))
      .handle("create", ({ payload }) => inWorkspace((workspaceId) => lists.create(workspaceId, payload.name)))
      .handle(
        "update",
        ({ path, payload }) => inWorkspace((workspaceId) => lists.update(workspaceId, path.id, payload))
      )
      .handle("delete", ({ path }) => inWorkspace((workspaceId) => lists.remove(workspaceId, path.id)))
      .handle(
        "addPackage",
        ({ path, payload }) => inWorkspace((workspaceId) => lists.addPackage(workspaceId, path.id, payload))
      )
      .handle(
        "changePackage",
        ({ path, payload }) =>
          inWorkspace((workspaceId) => lists.changePackage(workspaceId, path.id, path.packageId, payload))
      )
      .handle(
        "removePackage",
        ({ path }) => inWorkspace((workspaceId) => lists.removePackage(workspaceId, path.id, path.packageId))
      )
  }))
