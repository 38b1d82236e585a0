import { Schema } from "effect"

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

export const SubscriptionKind = Schema.Literal("BROADCAST", "STREAM", "QUEUE")
export type SubscriptionKind = typeof SubscriptionKind.Type

/** A pin: null (or absent) follows the default; a version must be a full `major.minor.patch` (the service checks). */
const Pin = Schema.NullOr(Schema.String)

/** A version pin: `latest` follows the newest build as null does, and is stored as null (SPEC Versioning 2). */
const VersionPin = Schema.transform(Pin, Pin, {
  strict: true,
  decode: (version) => version === "latest" ? null : version,
  encode: (version) => version
})

/** Which fields a kind needs is checked by the service, which names the missing one. */
export const AddSubscriptionBody = Schema.Struct({
  kind: SubscriptionKind,
  sourceSlug: opt(Schema.String),
  formatSlug: opt(Schema.String),
  streamId: opt(Schema.String),
  queueId: opt(Schema.String),
  templateVariant: opt(Pin),
  templateVersion: opt(VersionPin)
})
export type AddSubscriptionBody = typeof AddSubscriptionBody.Type

export const ChangeSubscriptionBody = Schema.Struct({
  templateVariant: opt(Pin),
  templateVersion: opt(VersionPin),
  enabled: opt(Schema.Boolean)
})
export type ChangeSubscriptionBody = typeof ChangeSubscriptionBody.Type

export const Subscription = Schema.Struct({
  id: Schema.String,
  kind: SubscriptionKind,
  sourceSlug: Schema.NullOr(Schema.String),
  formatSlug: Schema.NullOr(Schema.String),
  streamId: Schema.NullOr(Schema.String),
  queueId: Schema.NullOr(Schema.String),
  queueName: Schema.NullOr(Schema.String),
  feedId: Schema.NullOr(Schema.String),
  templateId: Schema.NullOr(Schema.String),
  templateVariant: Schema.NullOr(Schema.String),
  templateVersion: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean
}).annotations({
  identifier: "Subscription",
  description: "What a channel publishes. The input fixes `templateId`; `templateVariant` null is the input's own " +
    "variant (a feed's, or the template's first for a stream) and `templateVersion` null is the newest build."
})
export type Subscription = typeof Subscription.Type
