import type { SKRSContext2D } from "@napi-rs/canvas"
import { bulletsBlock, figuresBlock } from "./Blocks.js"
import type { Block, BlockEnv } from "./Blocks.js"
import { luminance, rgba } from "./Color.js"
import { comparisonBlock } from "./Comparison.js"
import type { FontStacks } from "./Fonts.js"
import { brandRow, picturesBlock } from "./Marks.js"
import type { BadgeMark } from "./Marks.js"
import { anim, endOf } from "./Motion.js"
import type { Colours, Element, Plan, Rect } from "./Plan.js"
import { orientationOf, scaleOf } from "./Scene.js"
import type { SceneInput } from "./Scene.js"
import { fitText } from "./Text.js"

const even = (v: number) => Math.max(0, Math.round(v / 2) * 2)

export const coloursOf = (scene: SceneInput): Colours => {
  const { look } = scene
  const dark = (luminance(look.background[0]) + luminance(look.background[1])) / 2 < 0.4
  const ink = dark ? "#ffffff" : "#000000"
  return {
    text: look.text,
    muted: look.mutedText,
    accent: look.accent,
    positive: look.positive,
    negative: look.negative,
    panel: rgba(ink, dark ? 0.075 : 0.05),
    panelEdge: rgba(ink, dark ? 0.12 : 0.08),
    track: rgba(look.text, 0.16)
  }
}

const contentBlock = (scene: SceneInput, env: BlockEnv, w: number, maxH: number): Block | undefined => {
  const figures = (scene.content.figures ?? []).slice(0, 6)
  const bullets = (scene.content.bullets ?? []).filter((b) => b.trim() !== "").slice(0, 5)
  if (maxH <= 0) return undefined
  if (scene.layout === "bullets" && bullets.length > 0) return bulletsBlock(env, bullets, w, maxH)
  if (scene.layout === "comparison" && figures.length > 0) return comparisonBlock(env, figures, w, maxH)
  if (figures.length > 0) return figuresBlock(env, figures, w, maxH)
  if (bullets.length > 0) return bulletsBlock(env, bullets, w, maxH)
  return undefined
}

/**
 * Computes where everything goes; measured once per render, drawn per frame by Paint. `scene.look` is the look drawn
 * (the brand's colours already laid over the template's).
 */
export const layout = (
  ctx: SKRSContext2D,
  scene: SceneInput,
  stacks: FontStacks,
  logo: { readonly width: number; readonly height: number } | undefined,
  badge?: BadgeMark
): Plan => {
  const { width: W, height: H, safeArea: safe } = scene
  const u = Math.min(W, H) / 1080
  const o = orientationOf(W, H)
  const pad = (o === "landscape" ? 72 : 60) * u
  const area: Rect = {
    x: safe.left + pad,
    y: safe.top + pad,
    w: W - safe.left - safe.right - 2 * pad,
    h: H - safe.top - safe.bottom - 2 * pad
  }
  const colours = coloursOf(scene)
  const radius = scene.look.radius * u
  const locale = scene.locale
  const barH = even(Math.max(2, 10 * u))
  const bar = { x: even(area.x), y: even(area.y + area.h - barH), w: even(area.w), h: barH }
  const els: Array<Element> = []
  const headingScale = scaleOf(scene.brand?.headingScale)
  const bodyScale = scaleOf(scene.brand?.bodyScale)
  const env = (startAt: number): BlockEnv => ({
    ctx,
    stacks,
    locale,
    u,
    colours,
    radius,
    startAt,
    headingScale,
    bodyScale
  })

  let top = area.y
  // Logo top left and badge top right, inside the safe area like everything else.
  const brand = brandRow(env(0), scene.brand?.name, logo, area.x, top, area.w, badge)
  if (brand !== undefined) {
    els.push(...brand.elements)
    top += brand.height + 36 * u
  }
  let bottom = bar.y - 26 * u
  const source = scene.content.source?.trim()
  if (source !== undefined && source !== "") {
    const fitted = fitText(ctx, source, {
      stack: stacks.body,
      weight: 400,
      maxWidth: area.w,
      maxHeight: 80 * u * bodyScale,
      maxLines: 2,
      size: 28 * u * bodyScale,
      minSize: 20 * u,
      lineHeight: 1.25,
      locale
    })
    bottom -= fitted.height
    els.push({ kind: "text", fitted, x: area.x, y: bottom, color: colours.muted, anim: anim(0.5, 0.4), slide: 0 })
    bottom -= 32 * u
  }

  const landscape = o === "landscape"
  const left: Rect = landscape
    ? { x: area.x, y: top, w: area.w * 0.42, h: bottom - top }
    : { x: area.x, y: top, w: area.w, h: bottom - top }
  const right: Rect = landscape
    ? { x: area.x + area.w * 0.42 + 72 * u, y: top, w: area.w * 0.58 - 72 * u, h: bottom - top }
    : left

  const pictures = (scene.content.images ?? []).slice(0, 3)
  const hasContent = (scene.content.figures ?? []).length > 0 ||
    (scene.content.bullets ?? []).some((b) => b.trim() !== "")
  const hs = o === "portrait" ? 96 : o === "square" ? 84 : 86
  const kickerH = Math.max(2, 10 * u)
  const headline = fitText(ctx, scene.content.headline, {
    stack: stacks.heading,
    weight: 700,
    maxWidth: left.w,
    maxHeight: left.h * (hasContent && !landscape ? 0.3 : 0.55),
    maxLines: landscape ? 4 : 3,
    size: hs * u * headingScale,
    minSize: 44 * u * Math.min(1, headingScale),
    lineHeight: 1.12,
    locale
  })
  const subText = scene.content.subline?.trim()
  const subline = subText === undefined || subText === ""
    ? undefined
    : fitText(ctx, subText, {
      stack: stacks.body,
      weight: 400,
      maxWidth: left.w,
      maxHeight: left.h * 0.18,
      maxLines: o === "square" ? 2 : 3,
      size: (o === "portrait" ? 44 : 40) * u * bodyScale,
      minSize: 28 * u * Math.min(1, bodyScale),
      lineHeight: 1.3,
      locale
    })

  // The left stack: kicker, headline, subline, then pictures and content (in portrait and square).
  const head = kickerH + 28 * u + headline.height + (subline === undefined ? 0 : 22 * u + subline.height)
  const side = !landscape && H / W < 1.55 && pictures.length > 0 && hasContent
  const picsInLeft = pictures.length > 0 && (!landscape || hasContent)
  let pics: Block | undefined
  let content: Block | undefined
  let body = 0
  const gap = 56 * u
  if (side) {
    // Squarish frames: pictures in a column beside the content, so neither gets squeezed flat.
    const room = left.h - head - gap
    const cw = left.w * 0.6
    content = contentBlock(scene, env(0.4), cw, room)
    const pw = left.w - cw - 36 * u
    pics = picturesBlock(env(0.2), pictures.length, pw, Math.min(room, Math.max(content?.height ?? 0, pw * 0.7)), true)
    body = gap + Math.max(content?.height ?? 0, pics.height)
  } else {
    const picsRoom = picsInLeft ? left.h - head - 48 * u : right.h
    let picsMaxH = landscape ? picsRoom : Math.min(picsRoom, left.h * 0.22)
    // Pictures give way (smaller, then none) until the content fits at readable sizes.
    for (let attempt = 0; attempt < 5; attempt++) {
      pics = pictures.length === 0 || picsMaxH < 80 * u
        ? undefined
        : picturesBlock(env(0.2), pictures.length, picsInLeft ? left.w : right.w, picsMaxH)
      const picsH = picsInLeft && pics !== undefined ? 48 * u + pics.height : 0
      content = landscape
        ? contentBlock(scene, env(0.3), right.w, right.h)
        : contentBlock(scene, env(pics === undefined ? 0.3 : 0.4), left.w, left.h - head - picsH - gap)
      body = picsH + (!landscape && content !== undefined ? gap + content.height : 0)
      if (content === undefined || content.fits || pics === undefined || !picsInLeft || landscape) break
      picsMaxH = pics.height * 0.7
    }
  }
  let y = left.y + Math.max(0, (left.h - head - body) * (landscape ? 0.5 : 0.42))

  const kicker = { x: left.x, y, w: 110 * u, h: kickerH }
  els.push({ kind: "kicker", rect: kicker, color: colours.accent, anim: anim(0, 0.5) })
  y += kickerH + 28 * u
  els.push({ kind: "text", fitted: headline, x: left.x, y, color: colours.text, anim: anim(0, 0.5), slide: 40 * u })
  y += headline.height
  if (subline !== undefined) {
    y += 22 * u
    const colour = colours.muted
    els.push({ kind: "text", fitted: subline, x: left.x, y, color: colour, anim: anim(0.12, 0.5), slide: 32 * u })
    y += subline.height
  }
  const ends = [0.5, 0.62, 0.9]
  if (side && pics !== undefined) {
    y += gap
    const bodyH = Math.max(content?.height ?? 0, pics.height)
    if (content !== undefined) els.push(...content.place(left.x, y + (bodyH - content.height) / 2))
    els.push(...pics.place(left.x + left.w * 0.6 + 36 * u, y + (bodyH - pics.height) / 2))
  } else {
    if (pics !== undefined) {
      if (picsInLeft) {
        y += 48 * u
        els.push(...pics.place(left.x, y))
        y += pics.height
      } else els.push(...pics.place(right.x, right.y + (right.h - pics.height) / 2))
    }
    if (content !== undefined) {
      if (landscape) els.push(...content.place(right.x, right.y + (right.h - content.height) / 2))
      else els.push(...content.place(left.x, y + gap))
    }
  }
  if (pics !== undefined) ends.push(pics.end)
  if (content !== undefined) ends.push(content.end)
  for (const el of els) if ("anim" in el) ends.push(endOf(el.anim))
  return { width: W, height: H, unit: u, colours, elements: els, bar, naturalEnd: Math.max(...ends) }
}
