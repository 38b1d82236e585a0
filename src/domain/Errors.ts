import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** The spec's error table: every code, its status and what a reader of `GET /errors/<code>` learns. */
export const ErrorCatalogue = {
  malformed_json: [400, "The request body is not JSON."],
  schema_validation: [400, "The JSON does not fit the expected shape; each detail points at a field."],
  ratio_not_supported: [400, "The template does not come in that shape (ratio)."],
  locale_not_supported: [400, "Nothing is drawn in that language."],
  blocked_url: [400, "The service will not fetch from or deliver to that address."],
  unauthenticated: [401, "Credentials are missing or invalid. Send `Authorization: Bearer <API_KEY>`."],
  signature_invalid: [401, "The signature does not check out."],
  timestamp_skew: [401, "The signed request is too far from now."],
  forbidden: [403, "The credential is valid but may not do this; the message names the permission to add."],
  not_found: [404, "No such thing, or not the workspace's."],
  unknown_source: [404, "No shipped feed under that source slug."],
  unknown_format: [404, "No such format under the source."],
  unknown_template: [404, "No such template, or no such version of it."],
  unknown_stream: [404, "No stream with that id on the account."],
  conflict: [409, "Conflicts with what is already there."],
  idempotency_conflict: [409, "The same eventId was sent before with a different body."],
  invalid_state_transition: [409, "The resource is not in a state the action applies to."],
  stream_disabled: [409, "The stream exists and is switched off."],
  no_sample: [409, "A suggestion was requested before the stream received anything."],
  template_not_approved: [409, "The template is not cleared for the workspace."],
  replayed: [409, "That delivery id was already processed."],
  payload_too_large: [413, "The body is over the route's size limit."],
  unsupported_media_type: [415, "Wrong Content-Type for this route."],
  rate_limited: [429, "Too many requests, or no render allowance left. Retry after `retryAfterSeconds`."],
  internal: [500, "A fault on the service's side. Nothing about it is shown; quote the requestId."],
  render_failed: [502, "The renderer refused the job."],
  asset_unavailable: [502, "A needed file could not be fetched, or an export link was asked for too early."],
  checksum_mismatch: [502, "A file arrived that is not the promised one."],
  upstream_unavailable: [503, "A dependency is down, such as every renderer. Retry after `retryAfterSeconds`."],
  render_timeout: [504, "The renderer took too long."]
} as const satisfies Record<string, readonly [number, string]>

export type ErrorCode = keyof typeof ErrorCatalogue

export const isErrorCode = (s: string): s is ErrorCode => Object.hasOwn(ErrorCatalogue, s)

export const statusOf = (code: ErrorCode): number => ErrorCatalogue[code][0]

export class ErrorDetail extends Schema.Class<ErrorDetail>("ErrorDetail")({
  path: Schema.String,
  message: Schema.String,
  rule: Schema.optional(Schema.String),
  expected: Schema.optional(Schema.String),
  received: Schema.optional(Schema.String)
}) {}

const fields = {
  message: Schema.String,
  details: Schema.optionalWith(Schema.Array(ErrorDetail), { default: () => [] }),
  retryAfterSeconds: Schema.optional(Schema.Number)
}

const codes: Record<string, ErrorCode> = {}

/** An error of the table: the envelope's fields, the code's status, and the code as its OpenAPI description. */
const ApiError = <Self>() => <const Tag extends string>(tag: Tag, code: ErrorCode) => {
  codes[tag] = code
  return Schema.TaggedError<Self>()(
    tag,
    fields,
    HttpApiSchema.annotations<Self>({ status: statusOf(code), description: code })
  )
}

export class MalformedJson extends ApiError<MalformedJson>()("MalformedJson", "malformed_json") {}
export class SchemaValidation extends ApiError<SchemaValidation>()("SchemaValidation", "schema_validation") {}
export class RatioNotSupported extends ApiError<RatioNotSupported>()("RatioNotSupported", "ratio_not_supported") {}
export class LocaleNotSupported extends ApiError<LocaleNotSupported>()("LocaleNotSupported", "locale_not_supported") {}
export class BlockedUrl extends ApiError<BlockedUrl>()("BlockedUrl", "blocked_url") {}
export class Unauthenticated extends ApiError<Unauthenticated>()("Unauthenticated", "unauthenticated") {}
export class SignatureInvalid extends ApiError<SignatureInvalid>()("SignatureInvalid", "signature_invalid") {}
export class TimestampSkew extends ApiError<TimestampSkew>()("TimestampSkew", "timestamp_skew") {}
export class Forbidden extends ApiError<Forbidden>()("Forbidden", "forbidden") {}
export class NotFound extends ApiError<NotFound>()("NotFound", "not_found") {}
export class UnknownSource extends ApiError<UnknownSource>()("UnknownSource", "unknown_source") {}
export class UnknownFormat extends ApiError<UnknownFormat>()("UnknownFormat", "unknown_format") {}
export class UnknownTemplate extends ApiError<UnknownTemplate>()("UnknownTemplate", "unknown_template") {}
export class UnknownStream extends ApiError<UnknownStream>()("UnknownStream", "unknown_stream") {}
export class Conflict extends ApiError<Conflict>()("Conflict", "conflict") {}
export class IdempotencyConflict
  extends ApiError<IdempotencyConflict>()("IdempotencyConflict", "idempotency_conflict")
{}
export class InvalidStateTransition
  extends ApiError<InvalidStateTransition>()("InvalidStateTransition", "invalid_state_transition")
{}
export class StreamDisabled extends ApiError<StreamDisabled>()("StreamDisabled", "stream_disabled") {}
export class NoSample extends ApiError<NoSample>()("NoSample", "no_sample") {}
export class TemplateNotApproved
  extends ApiError<TemplateNotApproved>()("TemplateNotApproved", "template_not_approved")
{}
export class Replayed extends ApiError<Replayed>()("Replayed", "replayed") {}
export class PayloadTooLarge extends ApiError<PayloadTooLarge>()("PayloadTooLarge", "payload_too_large") {}
export class UnsupportedMediaType
  extends ApiError<UnsupportedMediaType>()("UnsupportedMediaType", "unsupported_media_type")
{}
export class RateLimited extends ApiError<RateLimited>()("RateLimited", "rate_limited") {}
export class Internal extends ApiError<Internal>()("Internal", "internal") {}
export class RenderFailed extends ApiError<RenderFailed>()("RenderFailed", "render_failed") {}
export class AssetUnavailable extends ApiError<AssetUnavailable>()("AssetUnavailable", "asset_unavailable") {}
export class ChecksumMismatch extends ApiError<ChecksumMismatch>()("ChecksumMismatch", "checksum_mismatch") {}
export class UpstreamUnavailable
  extends ApiError<UpstreamUnavailable>()("UpstreamUnavailable", "upstream_unavailable")
{}
export class RenderTimeout extends ApiError<RenderTimeout>()("RenderTimeout", "render_timeout") {}

/** Tag of each error class → its spec code, as each class below is declared. */
export const codeByTag: Readonly<Record<string, ErrorCode>> = codes

export interface ApiErrorLike {
  readonly _tag: string
  readonly message: string
  readonly details: ReadonlyArray<ErrorDetail>
  readonly retryAfterSeconds?: number | undefined
}

export const isApiError = (u: unknown): u is ApiErrorLike =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" && Object.hasOwn(codeByTag, u._tag)

/** Builds a detail whose path is an RFC 6901 pointer from path segments. */
export const detailAt = (segments: ReadonlyArray<string | number>, message: string, rule?: string): ErrorDetail =>
  new ErrorDetail({ path: toPointer(segments), message, ...(rule === undefined ? {} : { rule }) })

export const toPointer = (segments: ReadonlyArray<PropertyKey>): string =>
  segments.map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("")
