import { Config, Duration, Effect, Option } from "effect"

/** How long a draw of a clip of `frames` frames at `fps` may take, per attempt. */
export type TimeLimit = (frames: number, fps: number) => Duration.Duration

/** Generous: a render on a loaded node may run several times slower than real time. */
const byClipLength: TimeLimit = (frames, fps) => Duration.seconds(Math.max(60, (frames / fps) * 20))

/**
 * The render time limit of this node, read once when a service that draws is built: `RENDER_TIMEOUT_SECONDS` (any
 * positive number) for every draw, else 20 times the clip's length and at least a minute. Past it, a render output
 * is `timed_out` and a draw the caller waits for is 504 `render_timeout`.
 */
export const renderTimeLimit = Config.option(
  Config.number("RENDER_TIMEOUT_SECONDS").pipe(
    Config.validate({ message: "must be a positive number of seconds", validation: (seconds) => seconds > 0 })
  )
).pipe(
  Effect.map(Option.match({
    onNone: () => byClipLength,
    onSome: (seconds): TimeLimit => () => Duration.millis(Math.round(seconds * 1000))
  }))
)

export const describeLimit = (limit: Duration.Duration): string => {
  const seconds = Duration.toMillis(limit) / 1000
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(2)} s`
}
