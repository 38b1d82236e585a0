/** The posting switches a channel may carry; each surface has only some of them. */
export const switchNames = [
  "allowComments",
  "brandedContent",
  "allowDuetStitch",
  "hashtagsAsFirstComment",
  "silent"
] as const
export type SwitchName = typeof switchNames[number]

export type Posting = Partial<Record<SwitchName, boolean>>

export interface Surface {
  readonly surface: string
  readonly platform: string
  readonly label: string
  readonly ratios: ReadonlyArray<string>
  /** The switches the surface has, each with its default. */
  readonly posting: Posting
}

// What each platform lets a publisher choose per post: comments everywhere comments exist; paid-partnership labels
// on Meta and TikTok; duet and stitch on TikTok only; the first-comment hashtag habit on Instagram; silent
// messages on Telegram; nothing for a plain download.
const comments = { allowComments: true }
const meta = { ...comments, brandedContent: false }

export const surfaces: ReadonlyArray<Surface> = [
  { surface: "youtube-shorts", platform: "youtube", label: "YouTube Shorts", ratios: ["9x16"], posting: comments },
  { surface: "youtube-video", platform: "youtube", label: "YouTube video", ratios: ["16x9"], posting: comments },
  { surface: "facebook-reels", platform: "facebook", label: "Facebook Reels", ratios: ["9x16"], posting: meta },
  { surface: "facebook-feed", platform: "facebook", label: "Facebook feed", ratios: ["1x1"], posting: meta },
  {
    surface: "instagram-reels",
    platform: "instagram",
    label: "Instagram Reels",
    ratios: ["9x16"],
    posting: { ...meta, hashtagsAsFirstComment: false }
  },
  {
    surface: "instagram-feed",
    platform: "instagram",
    label: "Instagram feed",
    ratios: ["4x5", "1x1"],
    posting: { ...meta, hashtagsAsFirstComment: false }
  },
  {
    surface: "tiktok",
    platform: "tiktok",
    label: "TikTok",
    ratios: ["9x16"],
    posting: { ...comments, brandedContent: false, allowDuetStitch: true }
  },
  { surface: "linkedin", platform: "linkedin", label: "LinkedIn", ratios: ["1x1", "16x9"], posting: comments },
  {
    surface: "telegram",
    platform: "telegram",
    label: "Telegram",
    ratios: ["9x16", "1x1", "16x9"],
    posting: { silent: false }
  },
  {
    surface: "download",
    platform: "download",
    label: "no specific platform",
    ratios: ["9x16", "4x5", "1x1", "16x9"],
    posting: {}
  }
]

export const surfaceNames = surfaces.map((s) => s.surface)

export const DEFAULT_SURFACE = "instagram-reels"

export const surfaceOf = (name: string): Surface | undefined => surfaces.find((s) => s.surface === name)

/** The table as the OpenAPI description and docs/concepts.md show it. */
export const postingTable = surfaces
  .map((s) => `${s.surface}: ${Object.entries(s.posting).map(([k, v]) => `${k} (${v})`).join(", ") || "none"}`)
  .join("; ")
