import { Effect } from "effect"
import { type LocaleNotSupported, RenderFailed, UpstreamUnavailable } from "../domain/Errors.js"
import type { RenderError } from "../drawing/RenderError.js"

const stageWords = { draw: "drawing", encode: "encoding", verify: "checking the file" } as const

/**
 * A render drawn while the caller waits: the renderer's failure as the spec's error (interruption stays one). The one
 * place the engine's failure details become an API answer.
 */
export const renderRefusal = (e: RenderError): Effect.Effect<never, LocaleNotSupported | RenderFailed> => {
  switch (e._tag) {
    case "RenderInterrupted":
      return Effect.interrupt
    case "LocaleNotSupported":
      return Effect.fail(e)
    case "InvalidScene":
      return Effect.fail(new RenderFailed({ message: `The renderer refused the scene: ${e.message}` }))
    case "DrawFailed":
      return Effect.fail(new RenderFailed({ message: `The renderer failed while ${stageWords[e.stage]}.` }))
  }
}

/** A node started with RENDER_SLOTS=0 draws nothing itself. */
export const noSlotsHere = new UpstreamUnavailable({
  message: "This node offers no render slots (RENDER_SLOTS=0); ask another node.",
  retryAfterSeconds: 30
})
