/** The shapes of the shipped catalogue's data (`shipped/Sources.ts`). */
export interface FeedSchedule {
  /** `hour`, `day`, `weekday`, a weekday name, or `event` (sent as things happen). */
  readonly every: string
  /** `HH:MM` in UTC, or null when the feed is not sent at a time of day. */
  readonly time: string | null
}

/** A shipped format: the feed a workspace switches on, bound to a shipped template and one of its variants. */
export interface ShippedFeed {
  readonly id: string
  readonly slug: string
  readonly name: string
  readonly title: string
  readonly description: string
  readonly templateId: string
  readonly templateVariant: string
  readonly maxAgeSeconds: number | null
  readonly live: boolean
  readonly schedule: FeedSchedule
  readonly scheduleLabel: string
}

export interface FeedSource {
  readonly slug: string
  readonly milestone: number
  readonly live: boolean
  readonly includedByDefault: boolean
  readonly formats: ReadonlyArray<ShippedFeed>
}

export interface BoundFeed {
  readonly source: FeedSource
  readonly feed: ShippedFeed
}
