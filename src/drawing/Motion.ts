/** Timing of the entrance animations, on a natural timeline in seconds that is squeezed for short clips. */

export interface Anim {
  readonly start: number
  readonly dur: number
}

export const anim = (start: number, dur: number): Anim => ({ start, dur })

export const endOf = (a: Anim): number => a.start + a.dur

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v)

export const easeOutCubic = (p: number): number => 1 - (1 - p) ** 3

/** Progress 0..1 of an animation at time t (seconds), eased. */
export const progress = (a: Anim, t: number): number =>
  t >= a.start + a.dur ? 1 : t <= a.start ? 0 : easeOutCubic(clamp01((t - a.start) / a.dur))

/** Entrance animations take at most this share of the clip, so every clip keeps a still tail. */
const maxShare = 0.6

export interface Timeline {
  /** Multiplies natural times: 1 for normal clips, less for very short ones. */
  readonly scale: number
  /** First frame index from which nothing but the progress bar changes. */
  readonly stillFrom: number
}

export const timeline = (naturalEnd: number, frames: number, fps: number): Timeline => {
  const duration = frames / fps
  const scale = naturalEnd <= 0 ? 1 : Math.min(1, (duration * maxShare) / naturalEnd)
  const stillFrom = Math.min(frames - 1, Math.max(0, Math.ceil(naturalEnd * scale * fps)))
  return { scale, stillFrom }
}

/** Natural time of a frame index. */
export const timeOf = (frame: number, fps: number, tl: Timeline): number =>
  (frame / fps) / (tl.scale === 0 ? 1 : tl.scale)

export const decimalsOf = (value: number, explicit?: number): number => {
  if (explicit !== undefined) return Math.max(0, Math.min(4, Math.floor(explicit)))
  if (!Number.isFinite(value) || Number.isInteger(value)) return 0
  const fraction = value.toFixed(4).replace(/0+$/, "").split(".")[1] ?? ""
  return fraction.length
}

const formats = new Map<string, Intl.NumberFormat>()

export const formatNumber = (value: number, decimals: number, locale: string): string => {
  const key = `${locale}|${decimals}`
  let f = formats.get(key)
  if (f === undefined) {
    const opts = { minimumFractionDigits: decimals, maximumFractionDigits: decimals }
    try {
      f = new Intl.NumberFormat(locale, opts)
    } catch {
      f = new Intl.NumberFormat("en", opts)
    }
    formats.set(key, f)
  }
  return f.format(value)
}

/** The number shown while counting up: rounded to the shown decimals, exact at the end. */
export const countValue = (value: number, p: number, decimals: number): number => {
  if (p >= 1) return value
  const m = 10 ** decimals
  return Math.round(value * p * m) / m
}
