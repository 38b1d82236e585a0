import type { ContentLimits } from "../format/Fields.js"

/** The limits SPEC gives for the reference content shape; older or smaller builds narrow some of them. */
export const referenceLimits: ContentLimits = {
  headline: 80,
  subline: 120,
  figures: 6,
  figureLabel: 24,
  figureUnit: 8,
  bullets: 5,
  bulletLength: 90,
  images: 3,
  source: 80
}

export const fixedDuration = (frames: number) => ({ mode: "fixed", frames }) as const
