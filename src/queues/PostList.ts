import { Schema } from "effect"
import { isInstant } from "../domain/Instants.js"
import { PackageState } from "./PostListRecord.js"

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

export const QueueName = Schema.NonEmptyTrimmedString.pipe(Schema.maxLength(80)).annotations({
  description: "1 to 80 characters, unique among the workspace's lists."
})
export const PackageTitle = Schema.NonEmptyTrimmedString.pipe(Schema.maxLength(120)).annotations({
  description: "A label, 1 to 120 characters."
})
export const ScheduledFor = Schema.String.pipe(
  Schema.filter((text) => text === "now" || isInstant(text), {
    message: () => "`now` or an ISO 8601 instant with a zone, such as 2026-11-23T08:30:00Z"
  })
).annotations({
  description: "An ISO 8601 instant with its zone, or `now`; more than one minute in the past is refused."
})
/** The template's input document; present (its shape is checked against the build, naming each field). */
export const PackageData = Schema.Unknown.pipe(
  Schema.filter((value) => value !== undefined, { message: () => "is missing" })
).annotations({
  description: "The template's input document (`clipData`, `metaData`); language copies go under `locales`."
})
const Pin = Schema.NullOr(Schema.String)

export const CreateQueueBody = Schema.Struct({ name: QueueName })
export const UpdateQueueBody = Schema.Struct({ name: opt(QueueName), enabled: opt(Schema.Boolean) })
export type UpdateQueueBody = typeof UpdateQueueBody.Type

export const CreatePackageBody = Schema.Struct({
  title: PackageTitle,
  templateId: Schema.String,
  templateVariant: opt(Pin),
  templateVersion: opt(Pin),
  scheduledFor: ScheduledFor,
  data: PackageData
})
export type CreatePackageBody = typeof CreatePackageBody.Type

export const ChangePackageBody = Schema.Struct({
  title: opt(PackageTitle),
  templateId: opt(Schema.String),
  templateVariant: opt(Pin),
  templateVersion: opt(Pin),
  scheduledFor: opt(ScheduledFor),
  data: opt(PackageData),
  state: opt(Schema.Literal("CANCELLED"))
}).annotations({
  // Every field is optional and `state` cancels the item, so the all-fields example would cancel what it edits.
  examples: [{ title: "Where the markets opened", scheduledFor: "2026-12-02T08:30:00Z" }]
})
export type ChangePackageBody = typeof ChangePackageBody.Type

export const PackageOutcome = Schema.Struct({
  channels: Schema.Number,
  rendering: Schema.Number,
  rendered: Schema.Number,
  renderFailed: Schema.Number,
  published: Schema.Number,
  awaitingApproval: Schema.Number,
  publishFailed: Schema.Number
}).annotations({
  identifier: "PackageOutcome",
  description: "Counts over the jobs its event made, one per channel: still rendering, rendered (a post exists), " +
    "render failed, published, waiting for approval, hand-over failed."
})
export type PackageOutcome = typeof PackageOutcome.Type

export const Package = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  templateId: Schema.String,
  templateVariant: Schema.String,
  templateVersion: Schema.NullOr(Schema.String),
  data: Schema.Unknown,
  locales: Schema.Null,
  scheduledFor: Schema.String,
  state: PackageState,
  firedAt: Schema.NullOr(Schema.String),
  ingestEventId: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  outcome: Schema.NullOr(PackageOutcome)
}).annotations({
  identifier: "Package",
  description: "A scheduled post. `templateVersion` null follows the newest build; `locales` is always null " +
    "(language copies live in `data.locales`); `outcome` is null until it fires."
})
export type Package = typeof Package.Type

export const Listener = Schema.Struct({
  channelId: Schema.String,
  channelName: Schema.String,
  brandName: Schema.String
})
export type Listener = typeof Listener.Type

export const Queue = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  enabled: Schema.Boolean,
  posts: Schema.Array(Package),
  subscribers: Schema.Number,
  listeners: Schema.Array(Listener)
}).annotations({
  identifier: "Queue",
  description: "A post list: its posts ordered by `scheduledFor`, how many channels subscribe, and the channels " +
    "listening (live, enabled, with an enabled subscription)."
})
export type Queue = typeof Queue.Type
