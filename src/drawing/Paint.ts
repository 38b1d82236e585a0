import type { Canvas, Image, SKRSContext2D } from "@napi-rs/canvas"
import { rgba } from "./Color.js"
import { countValue, formatNumber, progress } from "./Motion.js"
import type { Arrow, Colours, Counter, Element, Plan, Rect } from "./Plan.js"
import type { SceneInput } from "./Scene.js"
import { drawLines } from "./Text.js"

export interface Assets {
  readonly pictures: ReadonlyArray<Image | undefined>
  readonly logo?: Image
  /** A picture badge, or the box a video badge plays in. */
  readonly badge?: Image | Canvas
  /** The brand's background picture (or its video's first frame), drawn instead of the gradient. */
  readonly background?: Image
}

/** Everything that never moves: drawn once per render into the static layer. */
export const paintBackground = (ctx: SKRSContext2D, scene: SceneInput, plan: Plan, assets?: Assets): void => {
  const { width: W, height: H } = scene
  const { bar } = plan
  if (assets?.background !== undefined) {
    cover(ctx, assets.background, { x: 0, y: 0, w: W, h: H })
    ctx.fillStyle = plan.colours.track
    ctx.fillRect(bar.x, bar.y, bar.w, bar.h)
    return
  }
  const [from, to] = scene.look.background
  const g = ctx.createLinearGradient(0, 0, W * 0.6, H)
  g.addColorStop(0, from)
  g.addColorStop(1, to)
  ctx.fillStyle = g
  ctx.fillRect(0, 0, W, H)
  const glow = (x: number, y: number, r: number, alpha: number) => {
    const rg = ctx.createRadialGradient(x, y, 0, x, y, r)
    rg.addColorStop(0, rgba(scene.look.accent, alpha))
    rg.addColorStop(1, rgba(scene.look.accent, 0))
    ctx.fillStyle = rg
    ctx.fillRect(0, 0, W, H)
  }
  const m = Math.max(W, H)
  glow(W * 0.95, H * 0.02, m * 0.55, 0.26)
  glow(W * 0.02, H * 0.98, m * 0.45, 0.1)
  ctx.fillStyle = plan.colours.track
  ctx.fillRect(bar.x, bar.y, bar.w, bar.h)
}

/** The progress bar's track alone: the static layer over a video background. */
export const paintTrack = (ctx: SKRSContext2D, plan: Plan): void => {
  ctx.fillStyle = plan.colours.track
  ctx.fillRect(plan.bar.x, plan.bar.y, plan.bar.w, plan.bar.h)
}

/** Filled width of the progress bar at a frame; even, so it paints into I420 chroma exactly. */
export const barFill = (plan: Plan, frame: number, frames: number): number =>
  Math.min(plan.bar.w, Math.round((plan.bar.w * (frame + 1)) / frames / 2) * 2)

export const paintBar = (ctx: SKRSContext2D, plan: Plan, accent: string, frame: number, frames: number): void => {
  ctx.globalAlpha = 1
  ctx.fillStyle = accent
  ctx.fillRect(plan.bar.x, plan.bar.y, barFill(plan, frame, frames), plan.bar.h)
}

const arrowColour = (c: Colours, a: Arrow) =>
  a.direction === "up" ? c.positive : a.direction === "down" ? c.negative : c.muted

const paintArrow = (ctx: SKRSContext2D, c: Colours, a: Arrow) => {
  const colour = arrowColour(c, a)
  const s = a.size
  ctx.fillStyle = rgba(colour, 0.18)
  ctx.beginPath()
  ctx.arc(a.cx, a.cy, s / 2, 0, Math.PI * 2)
  ctx.fill()
  ctx.save()
  ctx.translate(a.cx, a.cy)
  ctx.rotate(a.direction === "up" ? 0 : a.direction === "down" ? Math.PI : Math.PI / 2)
  ctx.fillStyle = colour
  ctx.beginPath()
  ctx.moveTo(0, -s * 0.3)
  ctx.lineTo(s * 0.24, -s * 0.03)
  ctx.lineTo(s * 0.085, -s * 0.03)
  ctx.lineTo(s * 0.085, s * 0.27)
  ctx.lineTo(-s * 0.085, s * 0.27)
  ctx.lineTo(-s * 0.085, -s * 0.03)
  ctx.lineTo(-s * 0.24, -s * 0.03)
  ctx.closePath()
  ctx.fill()
  ctx.restore()
}

const paintCounter = (
  ctx: SKRSContext2D,
  c: Counter,
  locale: string,
  at: { readonly x: number; readonly y: number },
  t: number,
  align: "left" | "right",
  colour: string
) => {
  const shown = formatNumber(countValue(c.value, progress(c.anim, t), c.decimals), c.decimals, locale)
  ctx.textBaseline = "alphabetic"
  ctx.textAlign = "left"
  ctx.fillStyle = colour
  let unitW = 0
  if (c.unit !== undefined) {
    ctx.font = c.unit.font
    unitW = ctx.measureText(c.unit.text).width + c.unit.gap
  }
  ctx.font = c.font
  const w = ctx.measureText(shown).width
  const left = align === "left" ? at.x : at.x - w - unitW
  ctx.fillText(shown, left, at.y)
  if (c.unit !== undefined) {
    ctx.font = c.unit.font
    ctx.fillText(c.unit.text, left + w + c.unit.gap, at.y)
  }
}

const roundRect = (ctx: SKRSContext2D, r: Rect, radius: number) => {
  ctx.beginPath()
  ctx.roundRect(r.x, r.y, r.w, r.h, Math.max(0, Math.min(radius, r.w / 2, r.h / 2)))
}

const cover = (ctx: SKRSContext2D, img: Image, r: Rect) => {
  const scale = Math.max(r.w / img.width, r.h / img.height)
  const sw = r.w / scale
  const sh = r.h / scale
  ctx.drawImage(img, (img.width - sw) / 2, (img.height - sh) / 2, sw, sh, r.x, r.y, r.w, r.h)
}

const paintOne = (ctx: SKRSContext2D, plan: Plan, assets: Assets, el: Element, locale: string, t: number) => {
  const p = progress(el.anim, t)
  if (p <= 0) return
  const c = plan.colours
  ctx.save()
  ctx.globalAlpha = p
  if ("slide" in el && el.slide > 0) ctx.translate(0, el.slide * (1 - p))
  switch (el.kind) {
    case "text":
      ctx.fillStyle = el.color
      drawLines(ctx, el.fitted, el.x, el.y)
      break
    case "kicker":
      ctx.fillStyle = el.color
      roundRect(ctx, { ...el.rect, w: el.rect.w * p }, el.rect.h / 2)
      ctx.fill()
      break
    case "logo":
      if (assets.logo !== undefined) ctx.drawImage(assets.logo, el.rect.x, el.rect.y, el.rect.w, el.rect.h)
      break
    case "badge":
      if (el.lines.length === 0) {
        if (assets.badge !== undefined) ctx.drawImage(assets.badge, el.rect.x, el.rect.y, el.rect.w, el.rect.h)
        break
      }
      ctx.fillStyle = el.fill ?? c.accent
      roundRect(ctx, el.rect, el.rect.h / 2)
      ctx.fill()
      ctx.fillStyle = el.ink
      for (const line of el.lines) drawLines(ctx, line.fitted, line.x, line.y, "center")
      break
    case "picture": {
      const img = assets.pictures[el.index]
      const s = 0.96 + 0.04 * p
      const r = el.rect
      ctx.translate(r.x + r.w / 2, r.y + r.h / 2)
      ctx.scale(s, s)
      ctx.translate(-(r.x + r.w / 2), -(r.y + r.h / 2))
      roundRect(ctx, r, el.radius)
      if (img === undefined) {
        ctx.fillStyle = c.panel
        ctx.fill()
      } else {
        ctx.clip()
        cover(ctx, img, r)
      }
      break
    }
    case "card":
      ctx.fillStyle = c.panel
      roundRect(ctx, el.rect, el.radius)
      ctx.fill()
      ctx.strokeStyle = c.panelEdge
      ctx.lineWidth = Math.max(1, plan.unit * 1.5)
      ctx.stroke()
      ctx.fillStyle = c.muted
      drawLines(ctx, el.label, el.labelAt.x, el.labelAt.y)
      paintCounter(ctx, el.counter, locale, el.valueAt, t, "left", c.text)
      if (el.arrow !== undefined) paintArrow(ctx, c, el.arrow)
      break
    case "bullet":
      ctx.fillStyle = c.accent
      ctx.beginPath()
      ctx.arc(el.marker.cx, el.marker.cy, el.marker.r, 0, Math.PI * 2)
      ctx.fill()
      ctx.fillStyle = c.text
      drawLines(ctx, el.text, el.at.x, el.at.y)
      break
    case "bar-row": {
      ctx.fillStyle = c.text
      drawLines(ctx, el.label, el.labelAt.x, el.labelAt.y)
      if (el.arrow !== undefined) paintArrow(ctx, c, el.arrow)
      paintCounter(ctx, el.counter, locale, el.valueAt, t, "right", c.text)
      ctx.fillStyle = c.panel
      roundRect(ctx, el.track, el.track.h / 2)
      ctx.fill()
      const grown = el.share * progress(el.counter.anim, t)
      if (grown > 0) {
        ctx.fillStyle = el.color
        roundRect(ctx, { ...el.track, w: Math.max(el.track.h, el.track.w * grown) }, el.track.h / 2)
        ctx.fill()
      }
      break
    }
  }
  ctx.restore()
}

export const paintElements = (ctx: SKRSContext2D, plan: Plan, assets: Assets, locale: string, t: number): void => {
  for (const el of plan.elements) paintOne(ctx, plan, assets, el, locale, t)
}
