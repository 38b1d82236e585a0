/** The shapes the service draws, as `NxM`; templates offer a subset per build. */
export const allRatios = ["9x16", "4x5", "1x1", "16x9", "2x3"] as const

export type Ratio = (typeof allRatios)[number]

/** Output sizes of the ratios, long side 1920 (16x9, 9x16) or 1080 wide. */
export const ratioSizes: Readonly<Record<Ratio, { readonly width: number; readonly height: number }>> = {
  "9x16": { width: 1080, height: 1920 },
  "4x5": { width: 1080, height: 1350 },
  "1x1": { width: 1080, height: 1080 },
  "16x9": { width: 1920, height: 1080 },
  "2x3": { width: 1080, height: 1620 }
}

export const isRatio = (s: string): s is Ratio => Object.hasOwn(ratioSizes, s)
