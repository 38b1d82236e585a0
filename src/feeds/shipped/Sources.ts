import type { FeedSource } from "./ShippedFeed.js"

const MARKET_MOVE = "tpl_3a7c91e04b5d"
const BRIEFING = "tpl_8e2f60b9d14a"
const SCOREBOARD = "tpl_c51d0a7e3f92"

/**
 * The shipped sources, in catalogue order. Feed ids are stable and never reused: a retired feed's id stays retired.
 * `includedByDefault` sources are what a new workspace is entitled to until the operator says otherwise.
 */
export const shippedSources: ReadonlyArray<FeedSource> = [
  {
    slug: "markets",
    milestone: 3,
    live: true,
    includedByDefault: true,
    formats: [
      {
        id: "fd_4b1e9c2a7d03",
        slug: "index-close",
        name: "Index close",
        title: "Where the markets closed",
        description: "The main indices at the close, each with its move on the day.",
        templateId: MARKET_MOVE,
        templateVariant: "standard",
        maxAgeSeconds: 3600,
        live: true,
        schedule: { every: "weekday", time: "17:45" },
        scheduleLabel: "Weekdays at 17:45"
      },
      {
        id: "fd_9a60d3f18e27",
        slug: "currency-moves",
        name: "Currency moves",
        title: "Currencies on the move",
        description: "The largest moves among the major currency pairs over the last hour.",
        templateId: MARKET_MOVE,
        templateVariant: "compact",
        maxAgeSeconds: 900,
        live: true,
        schedule: { every: "hour", time: null },
        scheduleLabel: "Every hour"
      }
    ]
  },
  {
    slug: "football",
    milestone: 3,
    live: true,
    includedByDefault: true,
    formats: [
      {
        id: "fd_2c7f05b9e641",
        slug: "full-time",
        name: "Full time",
        title: "Final score",
        description: "The final score of a match, sent when the referee blows the final whistle.",
        templateId: SCOREBOARD,
        templateVariant: "standard",
        maxAgeSeconds: 7200,
        live: true,
        schedule: { every: "event", time: null },
        scheduleLabel: "At every final whistle"
      },
      {
        id: "fd_e83a41c6d59b",
        slug: "matchday-table",
        name: "Matchday table",
        title: "The table after the matchday",
        description: "The top of the league table once every match of the matchday is played.",
        templateId: SCOREBOARD,
        templateVariant: "compact",
        maxAgeSeconds: null,
        live: true,
        schedule: { every: "monday", time: "09:00" },
        scheduleLabel: "Mondays at 09:00"
      }
    ]
  },
  {
    slug: "news",
    milestone: 4,
    live: true,
    includedByDefault: true,
    formats: [
      {
        id: "fd_5d92b7e0a31c",
        slug: "morning-briefing",
        name: "Morning briefing",
        title: "The morning briefing",
        description: "The stories of the morning in a few lines each.",
        templateId: BRIEFING,
        templateVariant: "standard",
        maxAgeSeconds: null,
        live: true,
        schedule: { every: "day", time: "07:00" },
        scheduleLabel: "Every day at 07:00"
      },
      {
        id: "fd_b04c6e19f872",
        slug: "headlines",
        name: "Headlines",
        title: "Headlines now",
        description: "The top headlines of the hour, short enough for a story frame.",
        templateId: BRIEFING,
        templateVariant: "compact",
        maxAgeSeconds: 10800,
        live: true,
        schedule: { every: "hour", time: null },
        scheduleLabel: "Every hour"
      }
    ]
  },
  {
    slug: "crypto",
    milestone: 5,
    live: false,
    includedByDefault: false,
    formats: [
      {
        id: "fd_71f3a8d2c0e5",
        slug: "coin-moves",
        name: "Coin moves",
        title: "Crypto movers",
        description: "The largest moves among the major coins over the last hour. Entitled by the operator only.",
        templateId: MARKET_MOVE,
        templateVariant: "compact",
        maxAgeSeconds: 600,
        live: false,
        schedule: { every: "hour", time: null },
        scheduleLabel: "Every hour"
      }
    ]
  }
]
