import { Context, Effect, Layer, Option } from "effect"
import { detailAt, Forbidden, UnknownFormat, UnknownSource } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { ConfigChanges } from "../sql/ConfigChanges.js"
import { Entitlements } from "./Entitlements.js"
import { feedIdentity, findSource, listSources } from "./FeedCatalogue.js"
import { FeedListeners } from "./FeedListeners.js"
import type { FeedSwitch } from "./FeedOffer.js"
import { FeedSwitchRepo } from "./FeedSwitchRepo.js"
import type { BoundFeed, FeedSource, ShippedFeed } from "./shipped/ShippedFeed.js"

const offeredTo = (entitled: ReadonlySet<string>, source: FeedSource, feed: ShippedFeed) =>
  entitled.has(source.slug) && source.live && feed.live

/**
 * The feed a source and format slug name; unknown ones answer 404, naming the body's field when the slugs came in a
 * body (`inBody`), and only in the message when they came in the path.
 */
export const feedBySlugs = (sourceSlug: string, formatSlug: string, inBody = true) =>
  Effect.gen(function*() {
    const at = (field: string, message: string) => (inBody ? [detailAt([field], message)] : [])
    const source = findSource(sourceSlug)
    if (Option.isNone(source)) {
      return yield* new UnknownSource({
        message: `No shipped source ${sourceSlug}.`,
        details: at("sourceSlug", "no such source")
      })
    }
    const feed = source.value.formats.find((format) => format.slug === formatSlug)
    if (feed === undefined) {
      return yield* new UnknownFormat({
        message: `Source ${sourceSlug} has no format ${formatSlug}; its formats are ` +
          `${source.value.formats.map((format) => format.slug).join(", ")}.`,
        details: at("formatSlug", "no such format")
      })
    }
    return { source: source.value, feed } satisfies BoundFeed
  })

const nameOf = ({ feed, source }: BoundFeed) => `${source.slug}/${feed.slug} (${feed.id})`

/** Which shipped feeds a workspace is offered, its switches on them, and who listens. */
const make = Effect.gen(function*() {
  const entitlements = yield* Entitlements
  const repo = yield* FeedSwitchRepo
  const changes = yield* ConfigChanges
  const listeners = yield* FeedListeners

  const entitledTo = (workspaceId: WorkspaceId) => Effect.map(entitlements.sourcesOf(workspaceId), (s) => new Set(s))

  const list = Effect.fn("FeedSwitches.list")(function*(workspaceId: WorkspaceId) {
    const entitled = yield* entitledTo(workspaceId)
    const switches = yield* repo.switches(workspaceId)
    const subscribers = yield* listeners.subscribers(workspaceId)
    const sources = listSources().map((source) => ({
      slug: source.slug,
      milestone: source.milestone,
      entitled: entitled.has(source.slug),
      live: source.live,
      formats: source.formats
        .map((feed) => ({
          ...feedIdentity(feed),
          offered: offeredTo(entitled, source, feed),
          enabled: switches.get(feed.id) ?? true,
          subscribers: subscribers.get(feed.id) ?? 0
        }))
        // A feed no longer offered stays in view while a channel listens, so it can be switched off.
        .filter((feed) => feed.offered || feed.subscribers > 0)
    }))
    return { sources: sources.filter((source) => source.formats.length > 0) }
  })

  const set = Effect.fn("FeedSwitches.set")(function*(workspaceId: WorkspaceId, body: FeedSwitch) {
    const bound = yield* feedBySlugs(body.sourceSlug, body.formatSlug)
    const offered = offeredTo(yield* entitledTo(workspaceId), bound.source, bound.feed)
    if (!offered && ((yield* listeners.subscribers(workspaceId)).get(bound.feed.id) ?? 0) === 0) {
      return yield* new Forbidden({ message: `The feed ${nameOf(bound)} is not offered to this workspace.` })
    }
    yield* repo.set(workspaceId, bound.feed.id, body.enabled)
    yield* changes.announce(workspaceId)
    return { sourceSlug: bound.source.slug, formatSlug: bound.feed.slug, enabled: body.enabled }
  })

  /** A feed a channel may subscribe to now: offered, and not switched off by the workspace. */
  const requireOpen = Effect.fn("FeedSwitches.requireOpen")(function*(workspaceId: WorkspaceId, bound: BoundFeed) {
    if (!offeredTo(yield* entitledTo(workspaceId), bound.source, bound.feed)) {
      return yield* new Forbidden({ message: `The feed ${nameOf(bound)} is not offered to this workspace.` })
    }
    if ((yield* repo.switches(workspaceId)).get(bound.feed.id) === false) {
      return yield* new Forbidden({
        message: `The feed ${nameOf(bound)} is switched off for this workspace; switch it on with PUT /v1/feeds.`
      })
    }
  })

  /** Whether the workspace has the feed on (every feed is on until switched off): its events reach channels. */
  const isOn = Effect.fn("FeedSwitches.isOn")(function*(workspaceId: WorkspaceId, feedId: string) {
    return (yield* repo.switches(workspaceId)).get(feedId) !== false
  })

  return { list, set, requireOpen, isOn, switchedOffAnywhere: repo.switchedOffAnywhere }
})

export class FeedSwitches extends Context.Tag("clipwright/feeds/FeedSwitches")<
  FeedSwitches,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(FeedSwitches, make)
}
