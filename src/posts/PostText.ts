import { isRecord } from "../templates/Validate.js"

export interface PostText {
  readonly title: string
  readonly caption: string
  readonly hashtags: ReadonlyArray<string>
}

type Caption = "captionShort" | "captionMedium" | "captionLong"

/** The caption length each platform takes (SPEC: Telegram short; YouTube and Facebook Feed long; the rest medium). */
export const captionFor = (surface: string): Caption => {
  if (surface === "telegram") return "captionShort"
  if (surface === "youtube-shorts" || surface === "youtube-video" || surface === "facebook-feed") return "captionLong"
  return "captionMedium"
}

const textOf = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)
const group = (value: unknown, key: string): Record<string, unknown> => {
  const found = isRecord(value) ? value[key] : undefined
  return isRecord(found) ? found : {}
}

/**
 * A post's text in its channel's language: the locale copy's `metaData` over the default's, field by field; with no
 * `metaData`, written from `clipData` (headline as title, headline and subline as caption).
 */
export const postTextOf = (content: unknown, locale: string, surface: string): PostText => {
  const copy = group(group(content, "locales"), locale)
  const meta = { ...group(content, "metaData"), ...group(copy, "metaData") }
  const clip = { ...group(content, "clipData"), ...group(copy, "clipData") }
  const headline = textOf(clip["headline"])
  const subline = textOf(clip["subline"])
  const wanted = captionFor(surface)
  const caption = textOf(meta[wanted]) ?? textOf(meta["captionMedium"]) ?? textOf(meta["captionLong"]) ??
    textOf(meta["captionShort"]) ?? [headline, subline].filter((t) => t !== undefined).join(" — ")
  const hashtags = Array.isArray(meta["hashtags"])
    ? meta["hashtags"].filter((t): t is string => typeof t === "string")
    : []
  return { title: textOf(meta["title"]) ?? headline ?? "", caption, hashtags }
}

/** All three caption lengths (SPEC: a hand-over carries them all), each falling back to the nearest one written. */
export const captionsOf = (content: unknown, locale: string, caption: string) => {
  const copy = group(group(content, "locales"), locale)
  const meta = { ...group(content, "metaData"), ...group(copy, "metaData") }
  const short = textOf(meta["captionShort"])
  const medium = textOf(meta["captionMedium"])
  const long = textOf(meta["captionLong"])
  return {
    short: short ?? medium ?? long ?? caption,
    medium: medium ?? long ?? short ?? caption,
    long: long ?? medium ?? short ?? caption
  }
}
