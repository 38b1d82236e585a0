import type { BrandStyle } from "./BrandStyle.js"

/**
 * The style a new brand starts from. `design.first` is the main brand colour and `second` its companion;
 * `third` and `fourth` are a light and a dark to pair with them. Text styles name the font slot they draw with.
 */
export const draftStyle = (name = ""): BrandStyle => ({
  identity: { name, titlePrimary: "", titleSecondary: "", footerPrimary: "", footerSecondary: "" },
  design: { first: "#2563EB", second: "#F59E0B", third: "#F8FAFC", fourth: "#0F172A" },
  accent: { positive: "#16A34A", negative: "#DC2626" },
  text: {
    primary: { font: "primary", size: 64, color: "#F8FAFC" },
    secondary: { font: "secondary", size: 36, color: "#CBD5E1" }
  },
  logo: null,
  badge: { kind: "text", enabled: false, primaryLine: "", secondaryLine: "", asset: null },
  background: { kind: "color", color: "#0F172A", asset: null },
  safeAreas: {},
  intro: { enabled: true, clips: {} },
  outro: { enabled: true, clips: {} },
  sound: { enabled: true, asset: null },
  fonts: { primary: null, secondary: null, tertiary: null, frame: null }
})

/** The first `New brand N` (N from 1) that no live brand of the workspace is called; names compare case-blind. */
export const firstFreeName = (taken: Iterable<string>): string => {
  const names = new Set([...taken].map((n) => n.toLowerCase()))
  let n = 1
  while (names.has(`new brand ${n}`)) n++
  return `New brand ${n}`
}
