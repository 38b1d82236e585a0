import { createCanvas, loadImage } from "@napi-rs/canvas"
import type { Canvas, Image, SKRSContext2D } from "@napi-rs/canvas"
import { parseHex } from "./Color.js"
import { fontsFor } from "./Fonts.js"
import { layout } from "./Layout.js"
import { timeline, timeOf } from "./Motion.js"
import type { Timeline } from "./Motion.js"
import { barFill, paintBackground, paintBar, paintElements } from "./Paint.js"
import type { Assets } from "./Paint.js"
import type { Plan } from "./Plan.js"
import type { BadgeMark } from "./Marks.js"
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

/** A picture path of a badge or background; a video should have been replaced by its first frame already. */
const pictureOf = (mark: { readonly kind: string; readonly path?: string } | undefined) =>
  mark === undefined || mark.kind === "color" || mark.kind === "text" ? undefined : mark.path

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
    load(pictureOf(scene.brand?.badge)),
    load(pictureOf(scene.brand?.background)),
    ...(scene.content.images ?? []).slice(0, 3).map((i) => load(i.path))
  ])
  const assets: Assets = {
    pictures,
    ...(logo === undefined ? {} : { logo }),
    ...(badge === undefined ? {} : { badge }),
    ...(background === undefined ? {} : { background })
  }
  const canvas = createCanvas(scene.width, scene.height)
  const ctx: SKRSContext2D = canvas.getContext("2d")
  const plan = layout(ctx, scene, stacks, logo, badgeMark(scene.brand?.badge, badge))
  const tl = timeline(plan.naturalEnd, scene.frames, scene.fps)
  const staticLayer = createCanvas(scene.width, scene.height)
  paintBackground(staticLayer.getContext("2d"), scene, plan, assets)
  const base = (t: number) => {
    ctx.globalAlpha = 1
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
    barWidth: (frame) => barFill(plan, frame, scene.frames)
  }
}
