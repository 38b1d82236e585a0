import type { Block, BlockEnv } from "./Blocks.js"
import { counterFor, counting, entrance, stagger } from "./Blocks.js"
import { anim } from "./Motion.js"
import type { Element } from "./Plan.js"
import type { Figure } from "./Scene.js"
import { fitText } from "./Text.js"

/** Horizontal bars, one per figure, lengths proportional to the absolute values. */
export const comparisonBlock = (env: BlockEnv, figures: ReadonlyArray<Figure>, w: number, maxH: number): Block => {
  const { u } = env
  const n = figures.length
  const max = Math.max(...figures.map((f) => Math.abs(f.value)), 0)
  let size = 54 * u
  for (;;) {
    const valueSize = size * 1.25
    const barH = Math.max(4, size * 0.62)
    const rowGap = size * 0.9
    const rowH = valueSize * 1.15 + size * 0.35 + barH
    const height = n * rowH + (n - 1) * rowGap
    if (height <= maxH || size < 20 * u) {
      if (height > maxH && n > 1) return comparisonBlock(env, figures.slice(0, -1), w, maxH)
      const valueMax = w * 0.42
      const counters = figures.map((f, i) =>
        counterFor(env, f, valueSize, valueMax, anim(env.startAt + i * stagger + 0.05, counting))
      )
      const labels = figures.map((f, i) => {
        env.ctx.font = counters[i]!.counter.font
        return fitText(env.ctx, f.label, {
          stack: env.stacks.body,
          weight: 400,
          maxWidth: w - valueMax - size,
          maxHeight: valueSize * 1.2,
          maxLines: 1,
          size,
          minSize: size * 0.75,
          lineHeight: 1.2,
          locale: env.locale
        })
      })
      return {
        height,
        fits: height <= maxH,
        end: env.startAt + (n - 1) * stagger + 0.05 + counting,
        place: (x, y) =>
          figures.map((f, i): Element => {
            const top = y + i * (rowH + rowGap)
            const baseline = top + valueSize * 0.95
            const { counter } = counters[i]!
            const colour = f.direction === "up"
              ? env.colours.positive
              : f.direction === "down"
              ? env.colours.negative
              : env.colours.accent
            const arrowSize = size * 0.8
            return {
              kind: "bar-row",
              label: labels[i]!,
              labelAt: { x: f.direction === undefined ? x : x + arrowSize * 1.25, y: baseline - size * 0.98 },
              counter,
              valueAt: { x: x + w, y: baseline },
              track: { x, y: top + valueSize * 1.15 + size * 0.35, w, h: barH },
              share: max === 0 ? 0 : Math.abs(f.value) / max,
              color: colour,
              ...(f.direction === undefined
                ? {}
                : {
                  arrow: { direction: f.direction, cx: x + arrowSize / 2, cy: baseline - size * 0.36, size: arrowSize }
                }),
              anim: anim(env.startAt + i * stagger, entrance),
              slide: 40 * u
            }
          })
      }
    }
    size *= 0.92
  }
}
