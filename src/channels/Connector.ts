import { Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "../Config.js"
import { NotFound } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { Identity } from "../identity/Identity.js"
import { connectorScripts } from "./ConnectorScripts.js"
import { surfaces } from "./Surfaces.js"

export const webhookEvents = ["post.publish", "post.update", "post.delete"] as const

/** Deprecated self-hosted connector routes: what a connector needs, drawn from this service's settings. */
const make = Effect.gen(function*() {
  const config = yield* AppConfig
  const identity = yield* Identity

  const env = Effect.fn("Connector.env")(function*(workspaceId: WorkspaceId) {
    const webhookUrl = yield* identity.findWorkspace(workspaceId).pipe(
      Effect.map(Option.flatMapNullable((w) => w.webhookUrl)),
      Effect.orDie
    )
    return {
      variables: [
        { name: "CLIPWRIGHT_BASE_URL", value: config.publicBaseUrl, secret: false, description: "This service." },
        { name: "CLIPWRIGHT_ACCOUNT_ID", value: workspaceId, secret: false, description: "The workspace." },
        {
          name: "CLIPWRIGHT_WEBHOOK_URL",
          value: Option.getOrNull(webhookUrl),
          secret: false,
          description: "Where deliveries are sent (the workspace's webhook address; null until the operator sets it)."
        },
        {
          name: "CLIPWRIGHT_WEBHOOK_SECRET",
          value: null,
          secret: true,
          description: "The `whsec_` secret the operator's webhook route showed once; never shown again here."
        }
      ]
    }
  })

  const script = Effect.fn("Connector.script")(function*(language: string) {
    const found = connectorScripts.get(language)
    if (found === undefined) {
      return yield* new NotFound({
        message: `No connector script for ${language}; known: ${[...connectorScripts.keys()].join(", ")}.`
      })
    }
    return { language, ...found }
  })

  const adapter = Effect.fn("Connector.adapter")(function*(platform: string) {
    const on = surfaces.filter((s) => s.platform === platform)
    if (on.length === 0) return yield* new NotFound({ message: `No connector adapter for platform ${platform}.` })
    return {
      platform,
      surfaces: on.map((s) => ({ surface: s.surface, label: s.label, ratios: [...s.ratios] })),
      events: [...webhookEvents],
      signature: "Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature (v1, HMAC-SHA256)",
      answer: "{ posts: [{ id, platformPostId, permalink }] } to fill the published post's platform fields"
    }
  })

  return { env, script, adapter }
})

export class Connector extends Context.Tag("clipwright/channels/Connector")<
  Connector,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Connector, make)
}
