import { createCanvas, loadImage } from "@napi-rs/canvas"
import type { Canvas, Image, SKRSContext2D } from "@napi-rs/canvas"
import { parseHex } from "./Color.js"
import { fontsFor } from "./Fonts.js"
import { layout } from "./Layout.js"
import type { BadgeMark } from "./Marks.js"
import { timeline, timeOf } from "./Motion.js"
import type { Timeline } from "./Motion.js"
import { barFill, paintBackground, paintBar, paintElements, paintTrack } from "./Paint.js"
import type { Assets } from "./Paint.js"
import type { Plan } from "./Plan.js"
import { lookOf } from "./Scene.js"
import type { BrandBadge, SceneInput } from "./Scene.js"
import { yuvOf } from "./Yuv.js"
import type { Yuv } from "./Yuv.js"

export interface FrameSource {
  readonly plan: Plan
  readonly timeline: Timeline
  readonly canvas: Canvas
  /** Draws frame i (progress bar included) onto `canvas`. */
  readonly draw: (frame: number) => void
  /** Draws the finished scene without the progress bar fill: the base of every still frame. */
  readonly drawStill: () => void
  /** Natural animation time of a frame. */
  readonly timeOf: (frame: number) => number
  readonly barColour: Yuv
  readonly barWidth: (frame: number) => number
  /** Frames are transparent where a video background is to show through (straight alpha, read with getImageData). */
  readonly transparent: boolean
  /** A video badge, played by the caller into its box frame by frame. */
  readonly badge?: MovingBadge
}

export interface MovingBadge {
  readonly path: string
  /** The box in pixels (even): the frames `show` takes are w×h RGBA. */
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
  /** Rows [y0, y1) (even) the box covers. */
  readonly rows: { readonly y0: number; readonly y1: number }
  /** Shows a frame in the badge from the next draw on. */
  readonly show: (rgba: Uint8Array) => void
}

/** The box of a picture badge, showing the video's first frame until `show` is handed the next. */
const movingBadge = (path: string, plan: Plan, still: Image, height: number) => {
  const el = plan.elements.find((e) => e.kind === "badge" && e.lines.length === 0)
  if (el === undefined || el.kind !== "badge") return undefined
  // Snapped to even pixels, so a frame of the finished scene can take the badge's pixels straight into I420.
  const even = (v: number) => Math.round(v / 2) * 2
  const x = Math.max(0, even(el.rect.x))
  const y = Math.max(0, even(el.rect.y))
  const w = Math.max(2, Math.min(even(el.rect.w), even(plan.width) - x))
  const h = Math.max(2, Math.min(even(el.rect.h), height - y))
  const snapped = { ...plan, elements: plan.elements.map((e) => (e === el ? { ...el, rect: { x, y, w, h } } : e)) }
  const box = createCanvas(w, h)
  const bctx = box.getContext("2d")
  bctx.drawImage(still, 0, 0, w, h)
  const frame = bctx.createImageData(w, h)
  const rows = { y0: y, y1: y + h }
  const show = (rgba: Uint8Array) => {
    frame.data.set(rgba)
    bctx.putImageData(frame, 0, 0)
  }
  return { box, plan: snapped, badge: { path, x, y, w, h, rows, show } satisfies MovingBadge }
}

const load = async (path: string | undefined): Promise<Image | undefined> => {
  if (path === undefined) return undefined
  try {
    return await loadImage(path)
  } catch {
    // A picture that cannot be decoded is drawn as an empty tile rather than failing the clip.
    return undefined
  }
}

/**
 * A picture path of a badge or background. A video background left in the scene is laid under the frames by ffmpeg
 * (the drawer leaves it transparent); any other video should have been replaced by its first frame already.
 */
const pictureOf = (mark: { readonly kind: string; readonly path?: string } | undefined) =>
  mark === undefined || mark.kind === "color" || mark.kind === "text" || mark.kind === "video" ? undefined : mark.path

const badgeMark = (badge: BrandBadge | undefined, image: Image | undefined): BadgeMark | undefined =>
  badge === undefined
    ? undefined
    : badge.kind === "text"
    ? badge
    : image === undefined
    ? undefined
    : { kind: "picture", size: { width: image.width, height: image.height } }

/** Prepares one render: fonts, pictures, layout and the static layer, all once. */
export const prepare = async (input: SceneInput): Promise<FrameSource> => {
  const scene: SceneInput = { ...input, look: lookOf(input) }
  const stacks = fontsFor(scene.locale, scene.brand)
  const [logo, badge, background, ...pictures] = await Promise.all([
    load(scene.brand?.logoPath),
    load(scene.brand?.badge?.kind === "video" ? scene.brand.badge.still : pictureOf(scene.brand?.badge)),
    load(pictureOf(scene.brand?.background)),
    ...(scene.content.images ?? []).slice(0, 3).map((i) => load(i.path))
  ])
  const canvas = createCanvas(scene.width, scene.height)
  const ctx: SKRSContext2D = canvas.getContext("2d")
  const laid = layout(ctx, scene, stacks, logo, badgeMark(scene.brand?.badge, badge))
  const video = scene.brand?.badge?.kind === "video" ? scene.brand.badge.path : undefined
  const moving = video === undefined || badge === undefined ? undefined : movingBadge(video, laid, badge, scene.height)
  const plan = moving?.plan ?? laid
  const assets: Assets = {
    pictures,
    ...(logo === undefined ? {} : { logo }),
    ...(badge === undefined ? {} : { badge: moving?.box ?? badge }),
    ...(background === undefined ? {} : { background })
  }
  const tl = timeline(plan.naturalEnd, scene.frames, scene.fps)
  const transparent = scene.brand?.background?.kind === "video"
  const staticLayer = createCanvas(scene.width, scene.height)
  if (transparent) paintTrack(staticLayer.getContext("2d"), plan)
  else paintBackground(staticLayer.getContext("2d"), scene, plan, assets)
  const base = (t: number) => {
    ctx.globalAlpha = 1
    if (transparent) ctx.clearRect(0, 0, scene.width, scene.height)
    ctx.drawImage(staticLayer, 0, 0)
    paintElements(ctx, plan, assets, scene.locale, t)
  }
  const accent = parseHex(scene.look.accent)
  const accentHex = `#${[accent.r, accent.g, accent.b].map((v) => v.toString(16).padStart(2, "0")).join("")}`
  return {
    plan,
    timeline: tl,
    canvas,
    draw: (frame) => {
      base(frame >= tl.stillFrom ? Number.POSITIVE_INFINITY : timeOf(frame, scene.fps, tl))
      paintBar(ctx, plan, accentHex, frame, scene.frames)
    },
    drawStill: () => base(Number.POSITIVE_INFINITY),
    timeOf: (frame) => (frame >= tl.stillFrom ? Number.POSITIVE_INFINITY : timeOf(frame, scene.fps, tl)),
    barColour: yuvOf(accent.r, accent.g, accent.b),
    barWidth: (frame) => barFill(plan, frame, scene.frames),
    transparent,
    ...(moving === undefined ? {} : { badge: moving.badge })
  }
}
