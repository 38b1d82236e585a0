import { Schema } from "effect"
import { feedFields } from "./Feed.js"

const describe = (description: string) => ({ description })

/** A shipped feed as one workspace sees it. */
export const WorkspaceFeed = Schema.Struct({
  ...feedFields,
  offered: Schema.Boolean.annotations(describe("The workspace is entitled to the source and the feed is live.")),
  enabled: Schema.Boolean.annotations(describe(
    "The workspace's switch (on unless switched off); off stops the " +
      "feed for every channel of the workspace."
  )),
  subscribers: Schema.Int.annotations(describe("Live channels with an enabled BROADCAST subscription to the feed."))
}).annotations({ identifier: "WorkspaceFeed" })

export const WorkspaceSource = Schema.Struct({
  slug: Schema.String,
  milestone: Schema.Int,
  entitled: Schema.Boolean,
  live: Schema.Boolean,
  formats: Schema.Array(WorkspaceFeed)
}).annotations({ identifier: "WorkspaceSource" })

export const WorkspaceFeeds = Schema.Struct({ sources: Schema.Array(WorkspaceSource) })

export const FeedSwitch = Schema.Struct({
  sourceSlug: Schema.String,
  formatSlug: Schema.String,
  enabled: Schema.Boolean
}).annotations({ identifier: "FeedSwitch" })
export type FeedSwitch = typeof FeedSwitch.Type
