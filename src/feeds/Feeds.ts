import { Context, Effect, Either, Layer, Option } from "effect"
import { UnknownFormat, UnknownSource } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { ReferenceClips } from "../renders/clips/ReferenceClips.js"
import { describeBuild } from "../templates/Describe.js"
import type { BuildSelector } from "../templates/TemplateRegistry.js"
import { findTemplate, resolveBuild } from "../templates/TemplateRegistry.js"
import { referenceListing } from "../templates/Views.js"
import { Entitlements } from "./Entitlements.js"
import type { Catalogue } from "./Feed.js"
import { defaultSourceSlugs, feedIdentity, findFeed, findSource, listSources } from "./FeedCatalogue.js"
import type { BoundFeed, ShippedFeed } from "./shipped/ShippedFeed.js"

/**
 * The input description of the feed's template at its variant's newest build. A binding without a build is a
 * shipping fault (the catalogue test guards it), not the caller's.
 */
const describeBinding = (feed: ShippedFeed) => {
  const resolved = resolveBuild(feed.templateId, { variant: feed.templateVariant })
  if (Either.isLeft(resolved)) {
    throw new Error(`Feed ${feed.id} is bound to ${feed.templateId} ${feed.templateVariant}, which has no build`)
  }
  return describeBuild(resolved.right)
}

const formatView = (feed: ShippedFeed) => ({
  ...feedIdentity(feed),
  payloadSchema: describeBinding(feed).jsonSchema
})

const requireFeed = (feedId: string) =>
  Option.match(findFeed(feedId), {
    onNone: () => Effect.fail(new UnknownFormat({ message: `No shipped feed ${feedId}.` })),
    onSome: (bound: BoundFeed) => Effect.succeed(bound)
  })

/** The shipped feed catalogue: the same for everyone but for `entitled`, which follows the caller's workspace. */
const make = Effect.gen(function*() {
  const entitlements = yield* Entitlements
  const references = yield* ReferenceClips

  const catalogue = Effect.fn("Feeds.catalogue")(function*(workspaceId: Option.Option<WorkspaceId>) {
    const entitled = new Set(
      Option.isSome(workspaceId) ? yield* entitlements.sourcesOf(workspaceId.value) : defaultSourceSlugs()
    )
    return {
      sources: listSources().map((source) => ({
        slug: source.slug,
        milestone: source.milestone,
        entitled: entitled.has(source.slug),
        live: source.live,
        formats: source.formats.map(formatView)
      }))
    } satisfies Catalogue
  })

  const describeFeed = Effect.fn("Feeds.describeFeed")(function*(feedId: string) {
    const { feed } = yield* requireFeed(feedId)
    return describeBinding(feed)
  })

  const describeFormat = Effect.fn("Feeds.describeFormat")(function*(sourceSlug: string, formatSlug: string) {
    const source = findSource(sourceSlug)
    if (Option.isNone(source)) return yield* new UnknownSource({ message: `No shipped source ${sourceSlug}.` })
    const feed = source.value.formats.find((format) => format.slug === formatSlug)
    if (feed === undefined) {
      return yield* new UnknownFormat({
        message: `Source ${sourceSlug} has no format ${formatSlug}; its formats are ` +
          `${source.value.formats.map((format) => format.slug).join(", ")}.`
      })
    }
    return describeBinding(feed)
  })

  const reference = Effect.fn("Feeds.reference")(function*(feedId: string) {
    const { feed, source } = yield* requireFeed(feedId)
    const template = findTemplate(feed.templateId)
    if (Option.isNone(template)) return yield* Effect.die(`Feed ${feed.id} names no shipped template`)
    return {
      feedId: feed.id,
      sourceSlug: source.slug,
      formatSlug: feed.slug,
      templateVariant: feed.templateVariant,
      ...referenceListing(template.value)
    }
  })

  /** Without `variant`, the feed's own variant: that is what its subscribers draw unless their channel pins another. */
  const referenceClip = Effect.fn("Feeds.referenceClip")(
    function*(feedId: string, ratio: string, query: BuildSelector) {
      const { feed } = yield* requireFeed(feedId)
      const variant = query.variant ?? feed.templateVariant
      return yield* references.clip(feed.templateId, ratio, { ...query, variant })
    }
  )

  return { catalogue, describeFeed, describeFormat, reference, referenceClip }
})

export class Feeds extends Context.Tag("clipwright/feeds/Feeds")<Feeds, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Feeds, make)
}
