import { Context, Effect, FiberRef, Layer, Option } from "effect"
import { Brands } from "../brands/Brands.js"
import { entityCall } from "../domain/EntityCalls.js"
import { Conflict, detailAt, NotFound } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { ulidForRequest } from "../domain/Ulid.js"
import { Identity } from "../identity/Identity.js"
import type { CreateChannelBody, UpdateChannelBody } from "./Channel.js"
import { ChannelEntity } from "./ChannelEntity.js"
import type { ChannelRow } from "./ChannelRecord.js"
import { ChannelRepo } from "./ChannelRepo.js"
import { firstFreeName, nameInUse, resolveConfig } from "./ChannelRules.js"
import { SubscriptionRepo } from "./SubscriptionRepo.js"
import { DEFAULT_SURFACE, surfaces } from "./Surfaces.js"
import { toChannel } from "./Views.js"

const make = Effect.gen(function*() {
  const repo = yield* ChannelRepo
  const subscriptionRepo = yield* SubscriptionRepo
  const brands = yield* Brands
  const identity = yield* Identity
  const entity = yield* ChannelEntity.client
  const requestId = FiberRef.get(CurrentRequestId)

  /** The channels as views, each with its subscriptions. */
  const views = (workspaceId: WorkspaceId, rows: ReadonlyArray<ChannelRow>) =>
    Effect.map(
      subscriptionRepo.ofChannels(workspaceId, rows.map((row) => row.id)),
      (subscriptions) => rows.map((row) => toChannel(row, subscriptions.filter((s) => s.channelId === row.id)))
    )

  const requireLive = (workspaceId: WorkspaceId, id: string) =>
    Effect.flatMap(
      repo.findLive(workspaceId, id),
      Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `No channel ${id}.` })),
        onSome: (row) => Effect.map(subscriptionRepo.ofChannels(workspaceId, [row.id]), (subs) => toChannel(row, subs))
      })
    )

  const hasWebhook = (workspaceId: WorkspaceId) =>
    identity.findWorkspace(workspaceId).pipe(Effect.map(Option.exists((w) => w.webhookUrl !== null)))

  /** The brand asked for (live, of the workspace), or the oldest enabled one. */
  const brandFor = (workspaceId: WorkspaceId, brandId: string | undefined) =>
    Effect.gen(function*() {
      if (brandId !== undefined) {
        return yield* brands.get(workspaceId, brandId).pipe(
          Effect.as(brandId),
          Effect.catchTag("NotFound", () =>
            Effect.fail(
              new NotFound({ message: `No brand ${brandId}.`, details: [detailAt(["brandId"], "no such brand")] })
            ))
        )
      }
      const { brands: all } = yield* brands.list(workspaceId)
      const oldest = all.find((b) => b.enabled)
      if (oldest !== undefined) return oldest.id
      return yield* new Conflict({
        message: all.length === 0
          ? "Make a brand first: every channel wears a brand."
          : "Make a brand first: every brand of the workspace is switched off; enable one or send brandId.",
        details: [detailAt(["brandId"], "no brand", "required")]
      })
    })

  const list = Effect.fn("Channels.list")(function*(workspaceId: WorkspaceId) {
    return { channels: yield* views(workspaceId, yield* repo.listLive(workspaceId)) }
  })

  const listSurfaces = Effect.fn("Channels.surfaces")(function*() {
    return { surfaces: surfaces.map(({ label, platform, ratios, surface }) => ({ surface, platform, label, ratios })) }
  })

  const create = Effect.fn("Channels.create")(function*(workspaceId: WorkspaceId, input: CreateChannelBody | null) {
    const body = input ?? {}
    const currentRequest = yield* requestId
    const id = ulidForRequest(currentRequest, `channel:${workspaceId}`)
    // A retried request (same x-request-id) finds what its first attempt created.
    const earlier = yield* repo.findLive(workspaceId, id)
    if (Option.isSome(earlier)) return yield* requireLive(workspaceId, id)
    if (body.name !== undefined && (yield* repo.nameTaken(workspaceId, body.name, null))) {
      return yield* nameInUse(body.name)
    }
    const config = yield* resolveConfig(undefined, { surface: DEFAULT_SURFACE, ...body }, {
      brandId: yield* brandFor(workspaceId, body.brandId),
      name: body.name ?? firstFreeName(yield* repo.liveNames(workspaceId)),
      hasWebhook: yield* hasWebhook(workspaceId)
    })
    yield* entityCall(entity(id).Create({ requestId: currentRequest, workspaceId, config }))
    return yield* requireLive(workspaceId, id)
  })

  const update = Effect.fn("Channels.update")(function*(workspaceId: WorkspaceId, id: string, body: UpdateChannelBody) {
    yield* requireLive(workspaceId, id)
    if (body.brandId !== undefined) yield* brandFor(workspaceId, body.brandId)
    yield* entityCall(
      entity(id).Update({
        requestId: yield* requestId,
        workspaceId,
        changes: body,
        hasWebhook: yield* hasWebhook(workspaceId)
      })
    )
    return yield* requireLive(workspaceId, id)
  })

  const remove = Effect.fn("Channels.delete")(function*(workspaceId: WorkspaceId, id: string) {
    const { cancelled } = yield* entityCall(entity(id).Delete({ requestId: yield* requestId, workspaceId }))
    return { deleted: true as const, cancelled }
  })

  /** The workspace's live channel as it now stands; another workspace's is NotFound, like a missing one. */
  const get = Effect.fn("Channels.get")(function*(workspaceId: WorkspaceId, id: string) {
    return yield* requireLive(workspaceId, id)
  })

  return { list, surfaces: listSurfaces, create, update, remove, get }
})

export class Channels extends Context.Tag("clipwright/channels/Channels")<
  Channels,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Channels, make)
}
