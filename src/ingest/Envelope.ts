import { Schema } from "effect"
import { InstantText } from "../domain/Instants.js"
import { Origin } from "../domain/Origin.js"
import { StreamId } from "../streams/Stream.js"
import { isLocale } from "../templates/Locales.js"

export const EventId = Schema.String.pipe(
  Schema.pattern(/^[0-9A-HJKMNP-TV-Z]{26}$/, { message: () => "a ULID: 26 Crockford base32 characters, upper case" })
).annotations({ examples: ["01JD5K3Q8W2M0B7N4C6V9X1Z3R"] })

/** An ISO 8601 instant; decoded to its UTC form, so one instant is one value however it was written. */
export const Instant = Schema.transform(
  InstantText,
  Schema.String,
  { strict: true, decode: (s) => new Date(s).toISOString(), encode: (s) => s }
)

export const Locale = Schema.String.pipe(
  Schema.filter(isLocale, { message: () => "an ISO 639-1 language code, or zh-CN, zh-TW or pt-BR" })
).annotations({ examples: ["en"] })

const DataObject = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  message: () => "an object: the event's content"
})

/** The envelope says exactly these things; a field it does not know is refused, naming it. */
const closed = { parseOptions: { onExcessProperty: "error", errors: "all" } } as const

/** `POST /v1/stream` and its validate route. `templateId` and `templateVersion` are the stream's, so ignored. */
export const StreamEnvelope = Schema.Struct({
  streamId: StreamId,
  eventId: EventId,
  occurredAt: Instant,
  locale: Schema.optional(Locale),
  data: DataObject,
  templateId: Schema.optional(Schema.Unknown),
  templateVersion: Schema.optional(Schema.Unknown)
}).annotations(closed)
export type StreamEnvelope = typeof StreamEnvelope.Type

/** `POST /v1/ingest/{source}/{format}` and its validate route; `publishAt`/`timezone` are for origin manual only. */
export const FeedEnvelope = Schema.Struct({
  eventId: EventId,
  occurredAt: Instant,
  origin: Schema.optional(Origin),
  locale: Schema.optional(Locale),
  data: DataObject,
  publishAt: Schema.optional(Schema.String),
  timezone: Schema.optional(Schema.String)
}).annotations(closed)
export type FeedEnvelope = typeof FeedEnvelope.Type

/** `POST /v1/broadcast`: a feed event for every workspace listening, named by the feed's slugs. */
export const BroadcastEnvelope = Schema.Struct({
  sourceSlug: Schema.String,
  formatSlug: Schema.String,
  eventId: EventId,
  occurredAt: Instant,
  locale: Schema.optional(Locale),
  data: DataObject
}).annotations(closed)
export type BroadcastEnvelope = typeof BroadcastEnvelope.Type
