import { LocaleNotSupported } from "../domain/Errors.js"
import { isHex } from "./Color.js"
import { canDraw } from "./Locales.js"
import { InvalidScene } from "./RenderError.js"
import { layouts, lookOf } from "./Scene.js"
import type { SceneInput } from "./Scene.js"

const positiveInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0

/** Throws InvalidScene or LocaleNotSupported; checked in the caller's process before anything is spawned. */
export const validateScene = (scene: SceneInput): void => {
  const bad = (message: string) => {
    throw new InvalidScene({ message })
  }
  if (!positiveInt(scene.width) || !positiveInt(scene.height)) bad("width and height must be positive integers")
  // yuv420p needs even sides; 8K is far past any ratio the service offers.
  if (scene.width % 2 !== 0 || scene.height % 2 !== 0) bad("width and height must be even")
  if (scene.width > 7680 || scene.height > 7680) bad("width and height must be at most 7680")
  if (!positiveInt(scene.frames)) bad("frames must be a positive integer")
  if (typeof scene.fps !== "number" || !(scene.fps > 0 && scene.fps <= 120)) bad("fps must be in (0, 120]")
  if (!layouts.includes(scene.layout)) bad(`unknown layout ${String(scene.layout)}`)
  // The look drawn: the template's with the brand's colours laid over it.
  const look = lookOf(scene)
  const colours = [...look.background, look.accent, look.positive, look.negative, look.text, look.mutedText]
  if (look.background.length !== 2 || !colours.every((c) => typeof c === "string" && isHex(c))) {
    bad("look colours must be hex colours")
  }
  if (typeof scene.content?.headline !== "string") bad("content.headline is required")
  const s = scene.safeArea
  const insets = [s.top, s.right, s.bottom, s.left]
  if (!insets.every((v) => typeof v === "number" && v >= 0)) bad("safeArea insets must be non-negative numbers")
  if (s.left + s.right > scene.width * 0.6 || s.top + s.bottom > scene.height * 0.6) bad("safeArea leaves no room")
  const scales = [scene.brand?.headingScale, scene.brand?.bodyScale].filter((v) => v !== undefined)
  if (!scales.every((v) => typeof v === "number" && v > 0)) bad("brand text scales must be positive numbers")
  if (!canDraw(scene.locale)) throw new LocaleNotSupported({ message: `Nothing is drawn in ${scene.locale}.` })
}
