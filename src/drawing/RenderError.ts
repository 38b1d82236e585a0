import { Schema } from "effect"
import { LocaleNotSupported } from "../domain/Errors.js"

/** The scene cannot be drawn as given (bad size, frame count, colour …); nothing was started. */
export class InvalidScene extends Schema.TaggedError<InvalidScene>()("InvalidScene", {
  message: Schema.String
}) {}

/**
 * The drawing pipeline failed: the drawer (stage `draw`), ffmpeg (`encode`) or the written file (`verify`). Its
 * details stay inside the service; the API answers the domain's `RenderFailed` (see `renders/RenderRefusals.ts`).
 */
export class DrawFailed extends Schema.TaggedError<DrawFailed>()("DrawFailed", {
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

/** A locale no shipped font covers is refused with the domain's `LocaleNotSupported`, as the API answers it. */
export type RenderError = InvalidScene | LocaleNotSupported | DrawFailed | RenderInterrupted

export const isRenderError = (u: unknown): u is RenderError =>
  u instanceof InvalidScene || u instanceof LocaleNotSupported || u instanceof DrawFailed ||
  u instanceof RenderInterrupted
