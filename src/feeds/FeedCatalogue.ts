import { Option } from "effect"
import { findTemplate } from "../templates/TemplateRegistry.js"
import type { BoundFeed, FeedSource, ShippedFeed } from "./shipped/ShippedFeed.js"
import { shippedSources } from "./shipped/Sources.js"

export const listSources = (): ReadonlyArray<FeedSource> => shippedSources

export const sourceSlugs = (): ReadonlyArray<string> => shippedSources.map((source) => source.slug)

export const defaultSourceSlugs = (): ReadonlyArray<string> =>
  shippedSources.filter((source) => source.includedByDefault).map((source) => source.slug)

export const findSource = (slug: string): Option.Option<FeedSource> =>
  Option.fromNullable(shippedSources.find((source) => source.slug === slug))

export const findFeed = (feedId: string): Option.Option<BoundFeed> => {
  for (const source of shippedSources) {
    const feed = source.formats.find((format) => format.id === feedId)
    if (feed !== undefined) return Option.some({ source, feed })
  }
  return Option.none()
}

export const templateNameOf = (feed: ShippedFeed): string =>
  Option.match(findTemplate(feed.templateId), { onNone: () => feed.templateId, onSome: (template) => template.name })

/** The fields every view of a feed shows (`feedFields`), from the shipped data. */
export const feedIdentity = (feed: ShippedFeed) => ({
  id: feed.id,
  slug: feed.slug,
  name: feed.name,
  title: feed.title,
  description: feed.description,
  templateId: feed.templateId,
  templateName: templateNameOf(feed),
  templateVariant: feed.templateVariant,
  maxAgeSeconds: feed.maxAgeSeconds,
  live: feed.live,
  schedule: feed.schedule,
  scheduleLabel: feed.scheduleLabel
})
