import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { ClipwrightApi } from "../Api.js"
import { Conflict } from "../domain/Errors.js"
import { inWorkspace } from "../domain/Principal.js"
import { Connector } from "./Connector.js"
import { Credentials } from "./Credentials.js"

const managedRefused = "Managed connections are no longer offered; the mode stays SELF_HOSTED."

const CredentialsHttp = HttpApiBuilder.group(ClipwrightApi, "credentials", (handlers) =>
  Effect.gen(function*() {
    const credentials = yield* Credentials
    return handlers
      .handle(
        "put",
        ({ path, payload }) => inWorkspace((workspaceId) => credentials.put(workspaceId, path.id, payload))
      )
      .handle("delete", ({ path }) => inWorkspace((workspaceId) => credentials.remove(workspaceId, path.id)))
  }))

const ConnectionsHttp = HttpApiBuilder.group(ClipwrightApi, "connections", (handlers) =>
  Effect.gen(function*() {
    const credentials = yield* Credentials
    return handlers
      .handle("list", () => inWorkspace(credentials.connections))
      .handle("mode", ({ payload }) =>
        payload.mode === "SELF_HOSTED"
          ? Effect.succeed({ mode: "SELF_HOSTED" as const })
          : Effect.fail(new Conflict({ message: managedRefused })))
  }))

const ConnectorHttp = HttpApiBuilder.group(ClipwrightApi, "connector", (handlers) =>
  Effect.gen(function*() {
    const connector = yield* Connector
    return handlers
      .handle("env", () => inWorkspace(connector.env))
      .handle("script", ({ path }) => connector.script(path.language))
      .handle("adapter", ({ path }) => connector.adapter(path.platform))
  }))

/** The deprecated credential, connection and connector routes with their service. */
export const CredentialsLive = Layer.mergeAll(CredentialsHttp, ConnectionsHttp, ConnectorHttp).pipe(
  Layer.provideMerge(Layer.merge(Credentials.layer, Connector.layer))
)
