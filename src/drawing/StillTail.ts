/**
 * The still tail of a clip, drawn by ffmpeg: once the entrance animations are over only the progress bar moves, so
 * the drawer sends the animated frames, then the finished scene twice (bar empty, bar full) and ffmpeg makes every
 * later frame from those two. Nine frames in ten then never cross the pipe: moving 3 MB per frame between the
 * processes cost more CPU than drawing them (docs/performance.md, "Rendering speed").
 */

export interface BarRect {
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

export interface StillTail {
  /** First frame from which only the bar changes; the drawer sends frames [0, stillFrom), then the two stills. */
  readonly stillFrom: number
  /** Progress bar geometry in even pixels, as `barFill` fills it. */
  readonly bar: BarRect
}

/** Frames the drawer writes for a clip with a still tail. */
export const framesOnPipe = (tail: StillTail): number => tail.stillFrom + 2

/** Whether a bar can be cut out of a yuv420p frame exactly: even, non-empty and inside the frame. */
export const fitsTail = (bar: BarRect, width: number, height: number): boolean =>
  [bar.x, bar.y, bar.w, bar.h].every((v) => Number.isInteger(v) && v % 2 === 0) &&
  bar.w > 0 && bar.h > 0 && bar.x >= 0 && bar.y >= 0 && bar.x + bar.w <= width && bar.y + bar.h <= height

/**
 * Filter graph from the drawer's frames on input 0 to `[v]`: the animated frames as they come, then the bar-empty
 * still repeated, with the full bar's first `barFill(frame)` columns laid over its track. The fill expression is
 * `barFill` of Paint.ts written in ffmpeg's expression language, operation for operation.
 */
export const stillTailGraph = (tail: StillTail, frames: number, fps: number): string => {
  const { stillFrom: s, bar } = tail
  const box = `${bar.w}:${bar.h}:${bar.x}:${bar.y}`
  // The frame's index from its time: overlay's own frame counter starts at 0 or 1 depending on the ffmpeg version.
  const fill = `min(${bar.w}\\,round(${bar.w}*(${s}+round(t*${fps})+1)/${frames}/2)*2)`
  const pick = (from: number) => `trim=start_frame=${from}:end_frame=${from + 1},setpts=PTS-STARTPTS`
  const still = [
    `[empty]${pick(s)},loop=loop=${frames - s - 1}:size=1:start=0,setpts=N/FRAME_RATE/TB,split[base][under]`,
    `[full]${pick(s + 1)},crop=${box}[bar]`,
    `[under]crop=${box}[track]`,
    `[track][bar]overlay=x='${fill}-w':y=0:eval=frame:eof_action=repeat[filled]`,
    `[base][filled]overlay=${bar.x}:${bar.y}`
  ]
  if (s === 0) return [`[0:v]split=2[empty][full]`, ...still.slice(0, -1), `${still.at(-1)},setsar=1[v]`].join(";")
  return [
    `[0:v]split=3[moving][empty][full]`,
    `[moving]trim=end_frame=${s},setpts=PTS-STARTPTS[animated]`,
    ...still.slice(0, -1),
    `${still.at(-1)}[tail]`,
    `[animated][tail]concat=n=2:v=1:a=0,setsar=1[v]`
  ].join(";")
}
