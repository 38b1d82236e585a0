import { Schema } from "effect"

export const StreamId = Schema.String.pipe(
  Schema.pattern(/^st_[0-9a-f]{12}$/, { message: () => "a stream id: st_ followed by 12 lowercase hex characters" })
).annotations({ examples: ["st_015711ef0981"] })

export const Coercion = Schema.Literal("string", "number", "integer", "boolean", "iso-date")

/** One field-map entry; "exactly one of from and const" is checked by the service, which names the field. */
export const FieldMapEntry = Schema.Struct({
  from: Schema.optional(Schema.String),
  const: Schema.optional(Schema.Unknown),
  fallback: Schema.optional(Schema.Unknown),
  as: Schema.optional(Coercion),
  maxLength: Schema.optional(Schema.Boolean)
})
export type FieldMapEntry = typeof FieldMapEntry.Type

export const FieldMap = Schema.Record({ key: Schema.String, value: FieldMapEntry })
export type FieldMap = typeof FieldMap.Type

export const StreamName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(120))
export const StreamDescription = Schema.String.pipe(Schema.maxLength(500))

export const Listener = Schema.Struct({ channelId: Schema.String, channelName: Schema.String })

export const Stream = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  enabled: Schema.Boolean,
  templateId: Schema.String,
  fieldMap: FieldMap,
  subscribers: Schema.Number,
  listeners: Schema.Array(Listener),
  lastReceivedAt: Schema.NullOr(Schema.String),
  lastSample: Schema.optional(Schema.Unknown),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type Stream = typeof Stream.Type

export const CreateStreamBody = Schema.Struct({
  id: Schema.optional(StreamId),
  name: StreamName,
  description: Schema.optional(StreamDescription),
  enabled: Schema.optional(Schema.Boolean),
  templateId: Schema.String,
  fieldMap: Schema.optional(FieldMap)
})
export type CreateStreamBody = typeof CreateStreamBody.Type

export const UpdateStreamBody = Schema.Struct({
  name: Schema.optional(StreamName),
  description: Schema.optional(StreamDescription),
  enabled: Schema.optional(Schema.Boolean),
  templateId: Schema.optional(Schema.String),
  fieldMap: Schema.optional(FieldMap)
})
export type UpdateStreamBody = typeof UpdateStreamBody.Type
