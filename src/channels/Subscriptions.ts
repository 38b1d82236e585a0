import { Context, Effect, FiberRef, Layer, Option } from "effect"
import { entityCall } from "../domain/EntityCalls.js"
import { Conflict, detailAt, NotFound, SchemaValidation, UnknownStream } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { ulidForRequest } from "../domain/Ulid.js"
import { feedBySlugs, FeedSwitches } from "../feeds/FeedSwitches.js"
import { Streams } from "../streams/Streams.js"
import { TemplateClearance } from "../templates/TemplateClearance.js"
import { ChannelEntity } from "./ChannelEntity.js"
import { Channels } from "./Channels.js"
import type { AddSubscriptionBody, ChangeSubscriptionBody } from "./Subscription.js"
import { SubscriptionRepo } from "./SubscriptionRepo.js"
import { checkPins } from "./SubscriptionRules.js"

const invalid = (path: string, message: string, rule: string) =>
  new SchemaValidation({ message, details: [detailAt([path], message, rule)] })

const inputFields = { BROADCAST: ["sourceSlug", "formatSlug"], STREAM: ["streamId"], QUEUE: ["queueId"] } as const
const allInputFields = ["sourceSlug", "formatSlug", "streamId", "queueId"] as const

/** A kind's own fields must be there and the other kinds' absent, so the input is never ambiguous. */
const checkShape = (body: AddSubscriptionBody) => {
  const own: ReadonlyArray<string> = inputFields[body.kind]
  for (const field of allInputFields) {
    const present = body[field] !== undefined
    if (own.includes(field) && !present) return Effect.fail(invalid(field, `${body.kind} needs ${field}.`, "required"))
    if (!own.includes(field) && present) {
      return Effect.fail(invalid(field, `${field} is not part of a ${body.kind} subscription.`, "absent"))
    }
  }
  return Effect.void
}

/** A channel's subscriptions: each change is checked here and written by the channel's entity. */
const make = Effect.gen(function*() {
  const repo = yield* SubscriptionRepo
  const channels = yield* Channels
  const feeds = yield* FeedSwitches
  const streams = yield* Streams
  const entity = yield* ChannelEntity.client
  const clearance = yield* TemplateClearance
  const requestId = FiberRef.get(CurrentRequestId)

  const inputOf = (workspaceId: WorkspaceId, body: AddSubscriptionBody) => {
    const none = { sourceSlug: null, formatSlug: null, feedId: null, streamId: null, queueId: null }
    switch (body.kind) {
      case "BROADCAST":
        return Effect.gen(function*() {
          const bound = yield* feedBySlugs(body.sourceSlug ?? "", body.formatSlug ?? "")
          yield* feeds.requireOpen(workspaceId, bound)
          return {
            ...none,
            inputKey: `feed:${bound.feed.id}`,
            sourceSlug: bound.source.slug,
            formatSlug: bound.feed.slug,
            feedId: bound.feed.id,
            templateId: bound.feed.templateId,
            inputVariant: bound.feed.templateVariant
          }
        })
      case "STREAM":
        return Effect.gen(function*() {
          const streamId = body.streamId ?? ""
          const templateId = yield* streams.templateOf(workspaceId, streamId)
          if (Option.isNone(templateId)) {
            return yield* new UnknownStream({
              message: `No stream ${streamId}.`,
              details: [detailAt(["streamId"], "no such stream")]
            })
          }
          const inputKey = `stream:${streamId}`
          return { ...none, inputKey, streamId, templateId: templateId.value, inputVariant: undefined }
        })
      case "QUEUE":
        return Effect.gen(function*() {
          const queueId = body.queueId ?? ""
          if (!(yield* repo.queueExists(workspaceId, queueId))) {
            return yield* new NotFound({
              message: `No post list ${queueId}.`,
              details: [detailAt(["queueId"], "no such post list")]
            })
          }
          // The input fixes no template: each post of the list chooses its own.
          return { ...none, inputKey: `queue:${queueId}`, queueId, templateId: null, inputVariant: undefined }
        })
    }
  }

  const add = Effect.fn("Subscriptions.add")(
    function*(workspaceId: WorkspaceId, channelId: string, body: AddSubscriptionBody) {
      yield* channels.get(workspaceId, channelId)
      yield* checkShape(body)
      const input = yield* inputOf(workspaceId, body)
      const pins = { templateVariant: body.templateVariant ?? null, templateVersion: body.templateVersion ?? null }
      yield* checkPins(body.kind, input.templateId, input.inputVariant, pins)
      if (input.templateId !== null) {
        yield* clearance.requireCleared(workspaceId, input.templateId, [
          body.kind === "STREAM" ? "streamId" : "formatSlug"
        ])
      }
      const currentRequest = yield* requestId
      const existing = yield* repo.findInput(workspaceId, channelId, input.inputKey)
      // A retried request (same x-request-id) finds what its first attempt added.
      if (Option.isSome(existing) && existing.value.createRequestId === currentRequest) {
        return yield* channels.get(workspaceId, channelId)
      }
      if (Option.isSome(existing)) {
        return yield* new Conflict({
          message: `Channel ${channelId} already subscribes to this input (subscription ${existing.value.id}).`
        })
      }
      const { inputVariant: _, ...fields } = input
      const id = ulidForRequest(currentRequest, `subscription:${channelId}`)
      const subscription = { id, kind: body.kind, ...fields, ...pins }
      yield* entityCall(entity(channelId).Subscribe({ requestId: currentRequest, workspaceId, subscription }))
      return yield* channels.get(workspaceId, channelId)
    }
  )

  const change = Effect.fn("Subscriptions.change")(
    function*(workspaceId: WorkspaceId, channelId: string, id: string, changes: ChangeSubscriptionBody) {
      yield* channels.get(workspaceId, channelId)
      const request = { requestId: yield* requestId, workspaceId, subscriptionId: id, changes }
      yield* entityCall(entity(channelId).ChangeSubscription(request))
      return yield* channels.get(workspaceId, channelId)
    }
  )

  const remove = Effect.fn("Subscriptions.remove")(function*(workspaceId: WorkspaceId, channelId: string, id: string) {
    yield* channels.get(workspaceId, channelId)
    yield* entityCall(entity(channelId).Unsubscribe({ requestId: yield* requestId, workspaceId, subscriptionId: id }))
    return yield* channels.get(workspaceId, channelId)
  })

  return { add, change, remove }
})

export class Subscriptions extends Context.Tag("clipwright/channels/Subscriptions")<
  Subscriptions,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Subscriptions, make)
}
