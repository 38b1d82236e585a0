// What docs/api.md shows for a field whose schema says no more than its type: a value a reader recognises, picked by
// the field's name (or `parent.name` where one name means different things; the parent of a body's top level is the
// route's group). Ids are ULIDs as the service draws them; templates, feeds and surfaces are the shipped ones.
import { marketMove } from "../src/templates/shipped/MarketMove.js"
import { strings } from "./ExampleStrings.js"

export const ULID = "01JD5K3Q8W2M0B7N4C6V9X1Z3R"
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/**
 * A ULID of the same morning for each kind of id (`channelId`, `jobId`, …; `id` takes its parent's name), so a
 * channel's id is the same wherever it appears and differs from a job's.
 */
export const ulidFor = (kind: string): string => {
  let seed = 2166136261
  for (const char of kind.replace(/Ids?$/, "").replace(/s$/, "")) {
    seed = Math.imul(seed ^ char.charCodeAt(0), 16777619) >>> 0
  }
  let random = ""
  for (let i = 0; i < 16; i++) {
    seed = Math.imul(seed ^ (seed >>> 15), 2246822519) >>> 0
    random += CROCKFORD[seed % 32]
  }
  return ULID.slice(0, 10) + random
}
export const INSTANT = "2026-12-01T08:00:00Z"
const SIGNED_URL =
  "https://clipwright.example/v1/assets/01JD5K3Q8W2M0B7N4C6V9X1Z3R/download?exp=1796112000&sig=2f1c9a0b7e"

// One morning's timeline, so an answer's instants are in an order a reader believes: made, then sent, then due.
const instants: Record<string, string> = {
  occurredAt: "2026-12-01T07:59:58Z",
  createdAt: "2026-12-01T07:58:12Z",
  requestedAt: "2026-12-01T08:00:02Z",
  receivedAt: "2026-12-01T08:00:00Z",
  startedAt: "2026-12-01T08:00:03Z",
  finishedAt: "2026-12-01T08:00:11Z",
  decidedAt: "2026-12-01T08:04:40Z",
  deliveredAt: "2026-12-01T08:00:12Z",
  nextAttemptAt: "2026-12-01T08:00:42Z",
  scheduledFor: "2026-12-01T17:45:00Z",
  publishedAt: "2026-12-01T17:45:04Z",
  expiresAt: "2026-12-01T09:00:00Z",
  since: "2026-11-24T00:00:00Z",
  until: "2026-12-01T23:59:59Z"
}

/** An instant for a field of this name, on the timeline above where it has a place. */
export const instantFor = (name: string): string => instants[name] ?? INSTANT

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
  top: 120,
  bottom: 160,
  left: 48,
  right: 48,
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
  storageMb: 2048,
  extraCeiling: 200,
  renders: 20,
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
  if (name === "id") return ulidFor(parent)
  if (/Ids?$/.test(name)) return ulidFor(name)
  if (/[a-z]At$/.test(name) || ["scheduledFor", "until", "since", "at", "stageSince"].includes(name)) {
    return instantFor(name)
  }
  if (/url$/i.test(name)) return SIGNED_URL
  return undefined
}

// Whole values for fields whose schema cannot carry its own example: a field map's entries hold `Schema.Unknown`
// twice, and redocly's example check refuses a schema with two `/schemas/unknown` ids. An event's payload goes
// through the map into the Market move template's input; a direct export or a post list item sends that input whole.
const PAYLOAD = {
  title: "European stocks close higher as energy rallies",
  summary: "Brent crude tops $84 after supply cuts"
}
const MAPPED = { clipData: { headline: PAYLOAD.title, subline: PAYLOAD.summary } }
const DOCUMENT = { clipData: marketMove.sample.clipData, metaData: marketMove.sample.metaData }
const INPUT_SCHEMA = {
  type: "object",
  required: ["clipData"],
  properties: { clipData: { type: "object", required: ["headline"], properties: { headline: { type: "string" } } } }
}
const wholes: Record<string, unknown> = {
  fieldMap: { "/clipData/headline": { from: "/title" }, "/clipData/subline": { from: "/summary", maxLength: true } },
  data: DOCUMENT,
  "streamSend.data": PAYLOAD,
  "feedIngest.data": PAYLOAD,
  "broadcasts.data": PAYLOAD,
  document: MAPPED,
  inputSchema: INPUT_SCHEMA,
  jsonSchema: INPUT_SCHEMA,
  payloadSchema: INPUT_SCHEMA,
  normalized: MAPPED
}

/** A whole value for the field, where one is known. */
export const wholeFor = (parent: string, name: string): unknown => lookup(wholes, parent, name)

/** What a field taking any JSON shows when nothing better is known: an event payload. */
export const payload = (): unknown => PAYLOAD

/** The key a record of this name shows: an id for records keyed by one, else a locale (a file per locale). */
export const recordKey = (name: string): string => strings[`${name}.key`] ?? (/Id$/.test(name) ? ulidFor(name) : "en")

/** A number for the field, where one is known. */
export const numberFor = (parent: string, name: string): number | undefined => lookup(numbers, parent, name)
