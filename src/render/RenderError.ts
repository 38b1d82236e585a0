import { Schema } from "effect"

/** The scene cannot be drawn as given (bad size, frame count, colour …); nothing was started. */
export class InvalidScene extends Schema.TaggedError<InvalidScene>()("InvalidScene", {
  message: Schema.String
}) {}

/** No shipped font covers the locale; the service answers `400 locale_not_supported`. */
export class LocaleNotSupported extends Schema.TaggedError<LocaleNotSupported>()("LocaleNotSupported", {
  locale: Schema.String
}) {
  override get message() {
    return `locale not supported: ${this.locale}`
  }
}

/** A child process failed: the drawer (stage `draw`), ffmpeg (`encode`) or the written file (`verify`). */
export class RenderFailed extends Schema.TaggedError<RenderFailed>()("RenderFailed", {
  stage: Schema.Literal("draw", "encode", "verify"),
  message: Schema.String,
  exitCode: Schema.NullOr(Schema.Number),
  signal: Schema.NullOr(Schema.String),
  /** Last lines ffmpeg (and the drawer) wrote to stderr. */
  stderrTail: Schema.String
}) {}

/** The render was cancelled (abort signal or fiber interruption); both child processes were killed. */
export class RenderInterrupted extends Schema.TaggedError<RenderInterrupted>()("RenderInterrupted", {}) {
  override get message() {
    return "render interrupted"
  }
}

export type RenderError = InvalidScene | LocaleNotSupported | RenderFailed | RenderInterrupted

export const isRenderError = (u: unknown): u is RenderError =>
  u instanceof InvalidScene || u instanceof LocaleNotSupported || u instanceof RenderFailed ||
  u instanceof RenderInterrupted
