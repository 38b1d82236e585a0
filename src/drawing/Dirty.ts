import { endOf } from "./Motion.js"
import type { Element, Plan } from "./Plan.js"

interface Extent {
  readonly top: number
  readonly bottom: number
  /** Natural time after which the element looks as in the finished scene. */
  readonly until: number
}

const extentOf = (el: Element): Extent => {
  const slide = "slide" in el ? el.slide : 0
  const until = Math.max(endOf(el.anim), "counter" in el ? endOf(el.counter.anim) : 0)
  switch (el.kind) {
    case "text":
      return { top: el.y - el.fitted.size * 0.4, bottom: el.y + el.fitted.height + el.fitted.size * 0.4 + slide, until }
    case "kicker":
    case "picture":
    case "logo":
    case "badge":
      return { top: el.rect.y, bottom: el.rect.y + el.rect.h + slide, until }
    case "card":
      return { top: el.rect.y, bottom: el.rect.y + el.rect.h + slide, until }
    case "bullet":
      return { top: el.at.y - el.text.size * 0.4, bottom: el.at.y + el.text.height + el.text.size * 0.4 + slide, until }
    case "bar-row":
      return {
        top: Math.min(el.labelAt.y, el.valueAt.y - el.counter.size * 1.2),
        bottom: el.track.y + el.track.h + slide,
        until
      }
  }
}

/**
 * Rows [y0, y1) (even) in which a frame at natural time t may differ from the finished scene: an element
 * whose animation is over is drawn exactly as in the still frame, so only unfinished ones count.
 */
export const dirtyRows = (plan: Plan, t: number): { readonly y0: number; readonly y1: number } | undefined => {
  const margin = 8 * plan.unit + 2
  let top = Number.POSITIVE_INFINITY
  let bottom = Number.NEGATIVE_INFINITY
  for (const el of plan.elements) {
    const e = extentOf(el)
    if (t >= e.until) continue
    top = Math.min(top, e.top)
    bottom = Math.max(bottom, e.bottom)
  }
  if (top > bottom) return undefined
  const y0 = Math.max(0, Math.floor((top - margin) / 2) * 2)
  const y1 = Math.min(plan.height, Math.ceil((bottom + margin) / 2) * 2)
  return y1 > y0 ? { y0, y1 } : undefined
}
