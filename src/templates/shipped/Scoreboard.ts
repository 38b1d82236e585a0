import type { BuildLook, Template } from "../format/Template.js"
import { fixedDuration, referenceLimits } from "./Limits.js"

const look: BuildLook = {
  layout: "comparison",
  background: ["#111111", "#262626"],
  foreground: "#FFFFFF",
  accent: "#FACC15",
  up: "#22C55E",
  down: "#EF4444",
  cornerRadius: 32,
  timing: { enter: 24, stagger: 10, outro: 18 }
}

export const scoreboard: Template = {
  id: "tpl_c51d0a7e3f92",
  name: "Scoreboard",
  family: "comparison",
  description: "Side-by-side comparison card: figures shown as paired bars or scores, the leader highlighted.",
  contentStyle: "comparison",
  milestone: 1,
  offered: true,
  subvariants: ["bars", "scores"],
  overridableStyle: ["accent", "background", "foreground", "up", "down"],
  variants: [
    {
      name: "standard",
      builds: [
        {
          version: "1.0.0",
          ratios: ["16x9", "1x1"],
          fps: 30,
          duration: fixedDuration(300),
          limits: { ...referenceLimits, bullets: 0, images: 2 },
          look
        },
        {
          version: "1.1.0",
          ratios: ["16x9", "1x1", "9x16"],
          fps: 30,
          duration: fixedDuration(300),
          limits: { ...referenceLimits, bullets: 2, images: 2 },
          look: { ...look, timing: { enter: 20, stagger: 10, outro: 18 } }
        }
      ]
    },
    {
      name: "compact",
      builds: [
        {
          version: "1.0.0",
          ratios: ["1x1", "4x5"],
          fps: 30,
          duration: fixedDuration(210),
          limits: { ...referenceLimits, figures: 2, bullets: 0, images: 0 },
          look: { ...look, cornerRadius: 20 }
        },
        {
          version: "2.0.0",
          ratios: ["1x1", "4x5", "9x16"],
          fps: 30,
          duration: fixedDuration(210),
          limits: { ...referenceLimits, figures: 4, bullets: 0, images: 0 },
          look: { ...look, cornerRadius: 20, timing: { enter: 18, stagger: 8, outro: 15 } }
        }
      ]
    }
  ],
  sample: {
    clipData: {
      headline: "Smartphone shipments, second quarter",
      subline: "Samsung keeps the lead as Apple narrows the gap",
      figures: [
        { label: "Samsung", value: 53.5, unit: "m", direction: "down" },
        { label: "Apple", value: 45.2, unit: "m", direction: "up" },
        { label: "Xiaomi", value: 42.3, unit: "m", direction: "up" },
        { label: "vivo", value: 25.9, unit: "m", direction: "flat" }
      ],
      bullets: ["Market grew 6.5% year on year", "Fourth straight quarter of growth"],
      source: "Industry tracker estimates"
    },
    metaData: {
      title: "Q2 smartphone shipments",
      captionShort: "Samsung leads Q2 shipments; Apple closes in.",
      hashtags: ["smartphones", "tech"]
    },
    locales: {
      es: { clipData: { headline: "Envíos de smartphones, segundo trimestre" } },
      "zh-CN": { metaData: { title: "第二季度智能手机出货量" } }
    }
  }
}
