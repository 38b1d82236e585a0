import type { BuildLook, Template } from "../format/Template.js"
import { fixedDuration, referenceLimits } from "./Limits.js"

const look: BuildLook = {
  layout: "figures",
  background: ["#0B1F33", "#12365A"],
  foreground: "#F4F7FA",
  accent: "#2EC4B6",
  up: "#2FBF71",
  down: "#E5484D",
  cornerRadius: 24,
  timing: { enter: 18, stagger: 8, outro: 15 }
}

export const marketMove: Template = {
  id: "tpl_3a7c91e04b5d",
  name: "Market move",
  family: "markets",
  description: "Figures-led card for a price or index move: a headline, up to six figures with their direction " +
    "and a source line.",
  contentStyle: "figures-led",
  milestone: 3,
  offered: true,
  subvariants: ["dark", "light"],
  overridableStyle: ["accent", "background", "foreground", "up", "down", "cornerRadius"],
  variants: [
    {
      name: "standard",
      builds: [
        {
          version: "1.0.0",
          ratios: ["9x16", "1x1", "16x9"],
          fps: 30,
          duration: fixedDuration(300),
          limits: { ...referenceLimits, figures: 4, bullets: 0 },
          look
        },
        {
          version: "1.1.0",
          ratios: ["9x16", "4x5", "1x1", "16x9"],
          fps: 30,
          duration: fixedDuration(300),
          limits: { ...referenceLimits, bullets: 3 },
          look: { ...look, cornerRadius: 20, timing: { enter: 15, stagger: 6, outro: 15 } }
        }
      ]
    },
    {
      name: "compact",
      builds: [
        {
          version: "1.0.0",
          ratios: ["9x16", "1x1"],
          fps: 30,
          duration: fixedDuration(180),
          limits: { ...referenceLimits, subline: 90, figures: 3, bullets: 0, images: 1 },
          look: { ...look, cornerRadius: 16, timing: { enter: 12, stagger: 6, outro: 12 } }
        },
        {
          version: "1.0.1",
          ratios: ["9x16", "4x5", "1x1"],
          fps: 30,
          duration: fixedDuration(180),
          limits: { ...referenceLimits, subline: 90, figures: 3, bullets: 0, images: 1 },
          look: { ...look, cornerRadius: 16, timing: { enter: 12, stagger: 5, outro: 12 } }
        }
      ]
    }
  ],
  sample: {
    clipData: {
      headline: "European stocks close higher as energy rallies",
      subline: "Brent crude tops $84 after supply cuts; banks trail the broader market",
      figures: [
        { label: "STOXX 600", value: 512.37, unit: "pts", direction: "up" },
        { label: "Brent crude", value: 84.12, unit: "USD", direction: "up" },
        { label: "EUR/USD", value: 1.0843, direction: "down" },
        { label: "DAX", value: 18432.5, unit: "pts", direction: "up" },
        { label: "Bund 10y yield", value: 2.414, unit: "%", direction: "flat" },
        { label: "Gold", value: 2331.8, unit: "USD", direction: "down" }
      ],
      bullets: ["Energy leads with a 2.1% gain", "Banks slip on rate-cut bets", "Volumes 8% below average"],
      source: "Exchange data, 17:35 CET"
    },
    metaData: {
      title: "European stocks close higher",
      captionShort: "STOXX 600 up as energy rallies.",
      captionMedium: "European stocks closed higher on Tuesday as energy shares rallied with crude.",
      captionLong: "European stocks closed higher on Tuesday. Energy led the gains as Brent crude topped $84 a barrel.",
      hashtags: ["markets", "stocks", "energy"]
    },
    locales: {
      de: {
        clipData: { headline: "Europas Börsen schließen fester, Energiewerte gefragt" },
        metaData: { title: "Europas Börsen schließen fester" }
      },
      "pt-BR": { clipData: { headline: "Bolsas europeias fecham em alta com energia" } }
    }
  }
}
