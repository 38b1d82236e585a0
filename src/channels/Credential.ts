import { Schema } from "effect"

/** One platform credential field as sent to `PUT /v1/channels/{id}/credentials`. */
export const CredentialFieldInput = Schema.Struct({
  key: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_.-]{1,64}$/, {
    message: () => "a key is 1 to 64 letters, digits, '_', '.' or '-'"
  })),
  label: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(120)))),
  value: Schema.String.pipe(Schema.maxLength(4096)),
  secret: Schema.optionalWith(Schema.Boolean, { default: () => true })
}).annotations({ description: "`secret` defaults to true: the value is shown masked from then on." })

export const CredentialsBody = Schema.Struct({
  fields: Schema.Array(CredentialFieldInput).pipe(Schema.maxItems(32))
})
export type CredentialsBody = typeof CredentialsBody.Type

/** A stored field as it is shown: secrets masked (`value` and `hint` keep only the last four characters). */
export const CredentialField = Schema.Struct({
  key: Schema.String,
  label: Schema.NullOr(Schema.String),
  hint: Schema.String,
  secret: Schema.Boolean,
  value: Schema.String,
  complete: Schema.Boolean,
  updatedAt: Schema.String,
  unreadable: Schema.Boolean
})
export type CredentialField = typeof CredentialField.Type

export const ChannelCredentials = Schema.Struct({
  channelId: Schema.String,
  channelName: Schema.String,
  surface: Schema.String,
  fields: Schema.Array(CredentialField)
})
export type ChannelCredentials = typeof ChannelCredentials.Type

export const Connections = Schema.Struct({
  mode: Schema.Literal("SELF_HOSTED"),
  endpoint: Schema.String,
  channels: Schema.Array(ChannelCredentials)
})

export const ModeBody = Schema.Struct({ mode: Schema.Literal("SELF_HOSTED", "MANAGED") })
