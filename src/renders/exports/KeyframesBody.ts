import { Schema } from "effect"
import { VideoBody } from "./Export.js"

export const MAX_KEYFRAMES = 60

export const Keyframe = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
    description: "Names the PNG in the zip (`<name>.png`, made safe and unique)."
  }),
  frame: Schema.Int.pipe(Schema.nonNegative()).annotations({
    description: "0-based frame of the clip; must be before the clip's end (see /direct-export/timing)."
  })
})

/** `POST /v1/direct-export/keyframes`: the video body plus 1 to 60 keyframes. */
export const KeyframesBody = Schema.Struct({
  ...VideoBody.fields,
  frames: Schema.Array(Keyframe).pipe(Schema.minItems(1), Schema.maxItems(MAX_KEYFRAMES))
})
export type KeyframesBody = typeof KeyframesBody.Type
