import type { Anim } from "./Motion.js"
import type { Direction } from "./Scene.js"
import type { Fitted } from "./Text.js"

export interface Rect {
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

export interface TextEl {
  readonly kind: "text"
  readonly fitted: Fitted
  readonly x: number
  readonly y: number
  readonly color: string
  readonly anim: Anim
  /** Distance slid upwards into place, in px. */
  readonly slide: number
}

export interface KickerEl {
  readonly kind: "kicker"
  readonly rect: Rect
  readonly color: string
  readonly anim: Anim
}

export interface PictureEl {
  readonly kind: "picture"
  readonly rect: Rect
  readonly index: number
  readonly radius: number
  readonly anim: Anim
}

export interface LogoEl {
  readonly kind: "logo"
  readonly rect: Rect
  readonly anim: Anim
}

/** The brand badge: a pill of text lines, or a picture fitted into `rect`. */
export interface BadgeEl {
  readonly kind: "badge"
  readonly rect: Rect
  readonly lines: ReadonlyArray<{ readonly fitted: Fitted; readonly x: number; readonly y: number }>
  readonly fill?: string
  readonly ink: string
  readonly anim: Anim
}

export interface Counter {
  readonly value: number
  readonly decimals: number
  readonly font: string
  readonly size: number
  readonly unit?: { readonly text: string; readonly font: string; readonly gap: number }
  readonly anim: Anim
}

export interface Arrow {
  readonly direction: Direction
  readonly cx: number
  readonly cy: number
  readonly size: number
}

export interface CardEl {
  readonly kind: "card"
  readonly rect: Rect
  readonly radius: number
  readonly label: Fitted
  readonly labelAt: { readonly x: number; readonly y: number }
  readonly counter: Counter
  /** Baseline of the value. */
  readonly valueAt: { readonly x: number; readonly y: number }
  readonly arrow?: Arrow
  readonly anim: Anim
  readonly slide: number
}

export interface BulletEl {
  readonly kind: "bullet"
  readonly marker: { readonly cx: number; readonly cy: number; readonly r: number }
  readonly text: Fitted
  readonly at: { readonly x: number; readonly y: number }
  readonly anim: Anim
  readonly slide: number
}

export interface BarRowEl {
  readonly kind: "bar-row"
  readonly label: Fitted
  readonly labelAt: { readonly x: number; readonly y: number }
  readonly counter: Counter
  /** Right edge and baseline of the value. */
  readonly valueAt: { readonly x: number; readonly y: number }
  readonly track: Rect
  /** Share of the track the bar fills when finished (0..1). */
  readonly share: number
  readonly color: string
  readonly arrow?: Arrow
  readonly anim: Anim
  readonly slide: number
}

export type Element = TextEl | KickerEl | PictureEl | LogoEl | BadgeEl | CardEl | BulletEl | BarRowEl

export interface Colours {
  readonly text: string
  readonly muted: string
  readonly accent: string
  readonly positive: string
  readonly negative: string
  readonly panel: string
  readonly panelEdge: string
  readonly track: string
}

/** Progress bar geometry: even numbers only, so the still tail can paint it into I420 planes exactly. */
export interface Bar {
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

export interface Plan {
  readonly width: number
  readonly height: number
  readonly unit: number
  readonly colours: Colours
  readonly elements: ReadonlyArray<Element>
  readonly bar: Bar
  /** Natural time (s) at which the last entrance animation ends. */
  readonly naturalEnd: number
}
