import { Schema } from "effect"
import { Subscription } from "./Subscription.js"
import { surfaceNames } from "./Surfaces.js"

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

export const ChannelName = Schema.NonEmptyTrimmedString.pipe(Schema.maxLength(80))
export const SurfaceName = Schema.Literal(...surfaceNames)
export const Approval = Schema.Literal("NONE", "PER_POST")
export const Ratio = Schema.String.pipe(
  Schema.pattern(/^[1-9]\d{0,2}x[1-9]\d{0,2}$/, { message: () => "a ratio like 9x16" })
)

/** Every switch any surface has; which ones a channel may carry depends on its surface (checked by the service). */
export const PostingBody = Schema.Struct({
  allowComments: opt(Schema.Boolean),
  brandedContent: opt(Schema.Boolean),
  allowDuetStitch: opt(Schema.Boolean),
  hashtagsAsFirstComment: opt(Schema.Boolean),
  silent: opt(Schema.Boolean)
})

export const SyndicationToken = Schema.NullOr(Schema.String.pipe(Schema.maxLength(500)))

const fields = {
  name: opt(ChannelName),
  surface: opt(SurfaceName),
  ratio: opt(Ratio),
  locale: opt(Schema.String),
  brandId: opt(Schema.String),
  approval: opt(Approval),
  deliverByEmail: opt(Schema.Boolean),
  deliverByWebhook: opt(Schema.Boolean),
  posting: opt(PostingBody),
  syndicates: opt(Schema.Boolean),
  syndicationToken: opt(SyndicationToken)
}

// Every field is optional and `posting` takes only the surface's switches, so an example built from the schema
// alone would be refused; these are calls the service takes (shown in /docs and docs/api.md).
export const CreateChannelBody = Schema.NullOr(
  Schema.Struct(fields).annotations({
    examples: [{
      name: "Acme Coffee Shorts",
      surface: "youtube-shorts",
      locale: "en",
      brandId: "01JD5K3Q8W2M0B7N4C6V9X1Z3R",
      approval: "NONE",
      deliverByWebhook: true,
      posting: { allowComments: true }
    }]
  })
)
export type CreateChannelBody = NonNullable<typeof CreateChannelBody.Type>

export const UpdateChannelBody = Schema.Struct({ ...fields, enabled: opt(Schema.Boolean) }).annotations({
  examples: [{ approval: "PER_POST", posting: { allowComments: false } }]
})
export type UpdateChannelBody = typeof UpdateChannelBody.Type

export const Posting = Schema.Record({ key: Schema.String, value: Schema.Boolean })

export const ChannelBrand = Schema.Struct({ id: Schema.String, name: Schema.String, enabled: Schema.Boolean })

export const Channel = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  platform: Schema.String,
  surface: Schema.String,
  surfaceLabel: Schema.String,
  ratio: Schema.String,
  locale: Schema.String,
  enabled: Schema.Boolean,
  approval: Approval,
  deliverByEmail: Schema.Boolean,
  deliverByWebhook: Schema.Boolean,
  posting: Posting,
  syndicates: Schema.Boolean,
  syndicationToken: Schema.NullOr(Schema.String),
  brand: ChannelBrand,
  subscriptions: Schema.Array(Subscription),
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotations({
  description: "syndicates and syndicationToken are deprecated: stored and shown, with no effect. subscriptions " +
    "lists what the channel publishes."
})
export type Channel = typeof Channel.Type

export const SurfaceView = Schema.Struct({
  surface: Schema.String,
  platform: Schema.String,
  label: Schema.String,
  ratios: Schema.Array(Schema.String)
})
