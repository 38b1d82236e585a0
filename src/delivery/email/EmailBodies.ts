import { escapeHtml } from "../../http/Html.js"
import type { DeliveryEvent, PostChanges } from "../../posts/PostChanges.js"
import type { PostOut } from "../WebhookData.js"

/** One post of an email, with what the email shows beside its facts. */
export interface EmailPost {
  readonly post: PostOut
  /** The clip's signed download link; null when the post has no clip to fetch. */
  readonly clipUrl: string | null
  readonly still: { readonly bytes: Uint8Array; readonly mimeType: "image/jpeg" } | null
}

export interface EmailBodyInput {
  readonly workspaceName: string
  readonly event: DeliveryEvent
  readonly posts: ReadonlyArray<EmailPost>
  readonly changes?: PostChanges | undefined
}

const BODY_STYLE = "font-family:sans-serif;font-size:15px;line-height:1.4;color:#111;max-width:640px;" +
  "margin:0 auto;padding:16px"

export const stillCid = (postId: string) => `still-${postId}@clipwright`

const hashtag = (tag: string) => (tag.startsWith("#") ? tag : `#${tag}`)

/** ISO times as `2025-03-01 14:30 UTC`: the same for every reader and every run. */
const when = (iso: string) => {
  const t = new Date(iso)
  return Number.isNaN(t.getTime()) ? iso : `${t.toISOString().slice(0, 16).replace("T", " ")} UTC`
}

const captionRows = (post: PostOut) =>
  [
    ["Short caption", post.captions.short],
    ["Medium caption", post.captions.medium],
    ["Long caption", post.captions.long]
  ] as const

const linkExpiry = (item: EmailPost) => {
  const asset = item.post.assets.find((a) => a.url === item.clipUrl)
  return asset === undefined ? "" : ` (the link works until ${when(asset.expiresAt)})`
}

const platformRef = (post: PostOut) =>
  [post.permalink, post.platformPostId === null ? null : `id ${post.platformPostId}`].filter((s) => s !== null)

const changeRows = (changes: PostChanges | undefined): Array<readonly [string, string]> => {
  if (changes === undefined) return []
  const rows: Array<readonly [string, string | undefined]> = [
    ["Title", changes.title],
    ["Description", changes.description],
    ["Caption", changes.caption],
    ["Hashtags", changes.hashtags?.map(hashtag).join(" ")],
    ["Disclaimer", changes.disclaimer],
    ["Link", changes.link === undefined ? undefined : [changes.link.label, changes.link.url].filter(Boolean).join(" ")],
    ["New video (media file)", changes.mediaFileId]
  ]
  return rows.flatMap(([label, value]) => (value === undefined ? [] : [[label, value] as const]))
}

const intro = (input: EmailBodyInput) => {
  const n = input.posts.length
  const asked = (verb: string) =>
    n === 1
      ? `Please ${verb} this post where it was published.`
      : `Please ${verb} these ${n} posts where they were published.`
  switch (input.event) {
    case "post.publish":
      return n === 1 ? "A post is ready to publish." : `${n} posts are ready to publish.`
    case "post.update":
      return asked("update")
    case "post.delete":
      return asked("remove")
  }
}

const textPost = (item: EmailPost) => {
  const { post } = item
  const ref = platformRef(post)
  const head = [
    `${post.channel.name} · ${post.channel.surfaceLabel}`,
    `Title: ${post.title}`,
    `Scheduled for: ${when(post.scheduledFor)}`,
    ...(ref.length === 0 ? [] : [`On the platform: ${ref.join(", ")}`])
  ]
  const links = [
    ...(item.clipUrl === null ? [] : [`Clip: ${item.clipUrl}${linkExpiry(item)}`]),
    `Published it? Tell us where: ${post.receipt.url}`
  ]
  return [
    head.join("\n"),
    ...captionRows(post).map(([label, text]) => `${label}:\n${text}`),
    `Hashtags: ${post.hashtags.length === 0 ? "(none)" : post.hashtags.map(hashtag).join(" ")}`,
    links.join("\n")
  ].join("\n\n")
}

export const textBody = (input: EmailBodyInput): string => {
  const changes = changeRows(input.changes)
  const parts = [
    `${input.workspaceName}: ${intro(input)}`,
    ...(changes.length === 0 ? [] : [["What changes:", ...changes.map(([k, v]) => `  ${k}: ${v}`)].join("\n")]),
    ...input.posts.map((item) => textPost(item))
  ]
  return `${parts.join("\n\n----------------------------------------\n\n")}\n`
}

const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`
const para = (html: string) => `<p style="margin:0 0 12px">${html}</p>`
const labelled = (label: string, text: string) =>
  `<p style="margin:0 0 4px;color:#555;font-size:13px">${escapeHtml(label)}</p>` +
  `<p style="margin:0 0 12px;white-space:pre-wrap">${escapeHtml(text)}</p>`

const htmlPost = (item: EmailPost) => {
  const { post } = item
  const ref = platformRef(post)
  const picture = item.still === null
    ? ""
    : `<img src="cid:${escapeHtml(stillCid(post.id))}" alt="Still of the clip" width="480" ` +
      `style="display:block;max-width:100%;height:auto;margin:0 0 12px;border:0">`
  return [
    `<div style="border-top:1px solid #ddd;padding-top:16px;margin-top:16px">`,
    para(`<strong>${escapeHtml(post.channel.name)}</strong> · ${escapeHtml(post.channel.surfaceLabel)}`),
    `<h2 style="font-size:18px;margin:0 0 12px">${escapeHtml(post.title)}</h2>`,
    item.clipUrl === null ? picture : `<a href="${escapeHtml(item.clipUrl)}">${picture}</a>`,
    para(`Scheduled for ${escapeHtml(when(post.scheduledFor))}`),
    ref.length === 0 ? "" : para(`On the platform: ${escapeHtml(ref.join(", "))}`),
    ...captionRows(post).map(([label, text]) => labelled(label, text)),
    labelled("Hashtags", post.hashtags.length === 0 ? "(none)" : post.hashtags.map(hashtag).join(" ")),
    item.clipUrl === null ? "" : para(`${link(item.clipUrl, "Download the clip")}${escapeHtml(linkExpiry(item))}`),
    para(`Published it? ${link(post.receipt.url, "Tell us where")}`),
    `</div>`
  ].filter((line) => line !== "").join("\n")
}

export const htmlBody = (input: EmailBodyInput): string => {
  const changes = changeRows(input.changes)
  return [
    `<!doctype html>`,
    `<html><head><meta charset="utf-8"></head>`,
    `<body style="${BODY_STYLE}">`,
    para(`${escapeHtml(input.workspaceName)}: ${escapeHtml(intro(input))}`),
    changes.length === 0 ? "" : [para("What changes:"), ...changes.map(([k, v]) => labelled(k, v))].join("\n"),
    ...input.posts.map((item) => htmlPost(item)),
    `</body></html>`
  ].filter((line) => line !== "").join("\n")
}
