// What docs/api.md shows for a field whose schema says no more than its type: a value a reader recognises, picked by
// the field's name (or `parent.name` where one name means different things). The ids, templates, feeds and surfaces
// are real ones: ULIDs as the service draws them, the shipped templates and feeds, the surfaces channels post to.

export const ULID = "01JD5K3Q8W2M0B7N4C6V9X1Z3R"
export const INSTANT = "2026-12-01T08:00:00Z"

const strings: Record<string, string> = {
  templateId: "tpl_3a7c91e04b5d",
  streamId: "st_015711ef0981",
  feedId: "fd_4b1e9c2a7d03",
  templateName: "Market move",
  templateVariant: "standard",
  variant: "standard",
  templateVersion: "1.1.0",
  version: "1.1.0",
  pinnedVersion: "1.1.0",
  family: "markets",
  contentStyle: "figures-led",
  descriptorSha: "9f2c4e1a7b3d5f60",
  sourceSlug: "markets",
  formatSlug: "index-close",
  slug: "index-close",
  "CatalogueEntry.slug": "markets",
  scheduleLabel: "Weekdays at 17:45",
  every: "weekday",
  time: "17:45",
  name: "Acme Coffee",
  "streams.name": "Closing prices",
  "channels.name": "Acme Coffee TikTok",
  "queues.name": "Weekday mornings",
  "identity.kind": "apikey",
  "stream.id": "st_015711ef0981",
  "Stream.id": "st_015711ef0981",
  "streams.id": "st_015711ef0981",
  "template.id": "tpl_3a7c91e04b5d",
  "TemplateView.id": "tpl_3a7c91e04b5d",
  "CatalogueEntry.id": "tpl_3a7c91e04b5d",
  "CatalogueFormat.id": "fd_4b1e9c2a7d03",
  "feed.id": "fd_4b1e9c2a7d03",
  "stream.name": "Closing prices",
  "Stream.name": "Closing prices",
  "channel.name": "Acme Coffee TikTok",
  "Channel.name": "Acme Coffee TikTok",
  "identity.name": "Acme Coffee",
  "member.name": "Dana Reyes",
  "approval.name": "Dana Reyes",
  accountName: "Acme Coffee",
  channelName: "Acme Coffee TikTok",
  brandName: "Acme Coffee",
  brand: "Acme Coffee",
  queueName: "Weekday mornings",
  title: "Where the markets closed",
  postTitle: "European stocks close higher as energy rallies",
  description: "Closing prices of the main indices, posted at the bell.",
  caption: "European stocks close higher as energy rallies. #markets #stocks",
  hashtags: "#markets",
  disclaimer: "Not investment advice.",
  titlePrimary: "Acme Coffee",
  titleSecondary: "Roasted in Hamburg",
  footerPrimary: "acmecoffee.example",
  footerSecondary: "@acmecoffee",
  primaryLine: "Acme Coffee",
  secondaryLine: "Market update",
  font: "Inter",
  platform: "tiktok",
  surface: "tiktok",
  surfaceLabel: "TikTok",
  locale: "en",
  language: "en",
  locales: "en",
  timezone: "Europe/Berlin",
  tz: "Europe/Berlin",
  ratio: "9x16",
  ratios: "9x16",
  introRatios: "9x16",
  outroRatios: "9x16",
  email: "dana@acme.example",
  ownerEmail: "dana@acme.example",
  login: "dana@acme.example",
  decidedBy: "user:dana@acme.example",
  createdBy: "user:dana@acme.example",
  uploadedBy: "user:dana@acme.example",
  role: "owner",
  scopes: "streams:write",
  apiKey: "cw_Qm9vdHN0cmFwIGtleSBmb3IgZG9jcyBleGFtcGxlcw",
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  syndicationToken: "syn_7f3a1c9e",
  endpoint: "https://hooks.example.com/clipwright",
  permalink: "https://www.tiktok.com/@acmecoffee/video/7311234567890123456",
  mimeType: "video/mp4",
  fileName: "index-close-9x16.mp4",
  filename: "index-close-9x16.mp4",
  "logo.fileName": "acme-logo.png",
  "logo.mimeType": "image/png",
  sha256: "3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7",
  ref: "media/01JD5K3Q8W2M0B7N4C6V9X1Z3R.png",
  key: "/clipData/headline",
  "TemplateKey.key": "headline",
  "fields.key": "headline",
  label: "Headline",
  hint: "One line, at most 80 characters",
  value: "European stocks close higher as energy rallies",
  values: "up",
  format: "string",
  summary: "A headline, a subline and up to six figures",
  from: "/title",
  "channelId.*": "Acme Coffee TikTok",
  "brandId.*": "Acme Coffee",
  "safeAreas.key": "9x16",
  "clips.key": "9x16",
  "*": "Acme Coffee",
  "query.from": "2026-12-01",
  "query.to": "2026-12-07",
  "query.key": "k_5Jq2nV8xT4",
  path: "/clipData/headline",
  message: "cut to 80 characters",
  rule: "maxLength",
  expected: "a string at most 120 characters long",
  received: "a string of 134 characters",
  problem: "The template build 1.1.0 has no 4x5 look for this brand",
  neededBecause: "The 4x5 post on Acme Coffee Instagram uses it",
  error: "the receiver answered 503",
  lastError: "the receiver answered 503",
  failureReason: "the receiver answered 503",
  reason: "2 videos of other workspaces ahead",
  details: "Rendered 9x16 in 4.2 s",
  note: "Approved for the morning slot",
  keptNote: "Kept for the quarterly review",
  answer: "ok",
  status: "ok",
  state: "PUBLISHED",
  kind: "webhook",
  source: "stream",
  origin: "stream",
  stage: "rendering",
  route: "/v1/streams/{id}/events",
  recipients: "dana@acme.example",
  channelNames: "Acme Coffee TikTok",
  periodStart: "2026-12-01",
  periodEnd: "2026-12-31",
  date: "2026-12-01",
  bodyBytes: "1284",
  series: "#2EC4B6",
  script: "Latn",
  slot: "logo",
  moveTo: "01JD5K3Q8W2M0B7N4C6V9X1Z3R",
  q: "energy",
  "error.type": "https://clipwright.example/errors/validation_failed",
  "templateFields.type": "text",
  added: "headline",
  changed: "subline",
  removed: "figures",
  unchanged: "source",
  withdrawn: "1.0.0",
  replaces: "1.0.0",
  subvariants: "dark",
  overridableStyle: "accent",
  variants: "standard",
  versions: "1.1.0",
  events: "post.published",
  sources: "markets",
  to: "dana@acme.example",
  sig: "2f1c9a0b7e",
  exp: "1796112000",
  channelIds: "01JD5K3Q8W2M0B7N4C6V9X1Z3R",
  jobIds: "01JD5K3Q8W2M0B7N4C6V9X1Z3R",
  postIds: "01JD5K3Q8W2M0B7N4C6V9X1Z3R",
  templateIds: "tpl_3a7c91e04b5d",
  backgroundKind: "color",
  badgeKind: "text"
}

// Colours by role, so a palette reads as one: design and background blues, green up, red down, light text on dark.
const colours: Record<string, string> = {
  first: "#0B1F33",
  second: "#12365A",
  third: "#2EC4B6",
  fourth: "#F4F7FA",
  positive: "#2FBF71",
  negative: "#E5484D",
  neutral: "#8A94A6",
  background: "#0B1F33",
  color: "#0B1F33",
  stage: "#0B1F33",
  surface: "#12365A",
  surfaceRaised: "#1A4670",
  line: "#2A5580",
  lineStrong: "#3C6C99",
  textStrong: "#F4F7FA",
  textBody: "#D5DEE8",
  textMuted: "#8A94A6",
  onBrand: "#FFFFFF",
  brand: "#2EC4B6",
  brandSecond: "#12365A",
  brandMuted: "#5C7A99",
  primaryColor: "#0B1F33",
  secondaryColor: "#2EC4B6",
  "primary.color": "#F4F7FA",
  "secondary.color": "#D5DEE8"
}

const numbers: Record<string, number> = {
  fps: 30,
  width: 1080,
  height: 1920,
  frame: 0,
  frames: 300,
  durationMs: 10000,
  limit: 40,
  page: 1,
  perPage: 25,
  size: 50,
  "primary.size": 64,
  "secondary.size": 40,
  attempt: 1,
  priority: 0,
  progress: 0.5,
  statusCode: 200,
  lastStatusCode: 200,
  retryAfterSeconds: 30,
  pollMs: 2000,
  maxAgeSeconds: 3600,
  stageSeconds: 42,
  byteSize: 1843200,
  maxBytes: 52428800,
  usedBytes: 1843200,
  remainingBytes: 50585600,
  milestone: 3,
  decimals: 2,
  maxLength: 80,
  maxItems: 6,
  seats: 5,
  renders: 500,
  renderAllowance: 500
}

// A list's items are looked up by the list's name first (`scopes`), then by its singular (`ratio` of `ratios`).
const lookup = <A>(table: Record<string, A>, parent: string, name: string): A | undefined =>
  table[`${parent}.${name}`] ?? table[name] ?? table[name.replace(/s$/, "")]

/** A string for the field, where one is known; colours only where the schema asks for one. */
export const stringFor = (parent: string, name: string, colour: boolean): string | undefined => {
  if (colour) return lookup(colours, parent, name) ?? "#2EC4B6"
  const known = lookup(strings, parent, name) ?? lookup(colours, parent, name)
  if (known !== undefined) return known
  if (name === "id" || /Id$/.test(name)) return ULID
  if (/[a-z]At$/.test(name) || ["scheduledFor", "until", "since", "at", "stageSince"].includes(name)) return INSTANT
  if (/url$/i.test(name)) return "https://clipwright.example/v1/media/01JD5K3Q8W2M0B7N4C6V9X1Z3R"
  return undefined
}

// Whole values for fields whose schema cannot carry its own example: a field map's entries hold `Schema.Unknown`
// twice, and redocly's example check refuses a schema with two `/schemas/unknown` ids. The map is the Market move
// template's, for the payload below.
const PAYLOAD = {
  title: "European stocks close higher as energy rallies",
  summary: "Brent crude tops $84 after supply cuts"
}
const wholes: Record<string, unknown> = {
  fieldMap: { "/clipData/headline": { from: "/title" }, "/clipData/subline": { from: "/summary", maxLength: true } }
}

/** A whole value for the field, where one is known; otherwise an event payload, for fields that take any JSON. */
export const wholeFor = (name: string): unknown => wholes[name]

export const payload = (): unknown => PAYLOAD

/** The key a record of this name shows: an id for records keyed by one, else the field map's JSON Pointer. */
export const recordKey = (name: string): string =>
  strings[`${name}.key`] ?? (/Id$/.test(name) ? ULID : "/clipData/headline")

/** A number for the field, where one is known. */
export const numberFor = (parent: string, name: string): number | undefined => lookup(numbers, parent, name)
