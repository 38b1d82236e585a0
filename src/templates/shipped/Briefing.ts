import type { BuildLook, Template } from "../format/Template.js"
import { fixedDuration, referenceLimits } from "./Limits.js"

const look: BuildLook = {
  layout: "bullets",
  background: ["#FAF7F2", "#EFE7DA"],
  foreground: "#1B1B1F",
  accent: "#C2410C",
  up: "#15803D",
  down: "#B91C1C",
  cornerRadius: 12,
  timing: { enter: 20, stagger: 30, outro: 18 }
}

export const briefing: Template = {
  id: "tpl_8e2f60b9d14a",
  name: "Briefing",
  family: "news",
  description: "Bullets-led explainer: a headline and up to five points revealed one by one, with an optional picture.",
  contentStyle: "bullets-led",
  milestone: 2,
  offered: true,
  subvariants: ["paper", "night"],
  overridableStyle: ["accent", "background", "foreground", "cornerRadius"],
  variants: [
    {
      name: "standard",
      builds: [
        {
          version: "1.0.0",
          ratios: ["9x16", "1x1"],
          fps: 30,
          duration: fixedDuration(360),
          limits: { ...referenceLimits, figures: 0, bullets: 4, bulletLength: 80 },
          look
        },
        {
          version: "1.1.0",
          ratios: ["9x16", "4x5", "1x1"],
          fps: 30,
          duration: fixedDuration(360),
          limits: { ...referenceLimits, figures: 2 },
          look
        },
        {
          version: "1.2.0",
          ratios: ["9x16", "4x5", "1x1", "16x9"],
          fps: 30,
          duration: fixedDuration(390),
          limits: { ...referenceLimits, figures: 2 },
          look: { ...look, timing: { enter: 18, stagger: 32, outro: 18 } }
        }
      ]
    },
    {
      name: "compact",
      builds: [
        {
          version: "1.0.0",
          ratios: ["9x16", "4x5"],
          fps: 30,
          duration: fixedDuration(240),
          limits: { ...referenceLimits, figures: 0, bullets: 3, bulletLength: 70, images: 1 },
          look: { ...look, cornerRadius: 8, timing: { enter: 15, stagger: 24, outro: 15 } }
        },
        {
          version: "1.1.0",
          ratios: ["9x16", "4x5", "2x3"],
          fps: 30,
          duration: fixedDuration(240),
          limits: { ...referenceLimits, figures: 0, bullets: 3, bulletLength: 70, images: 1 },
          look: { ...look, cornerRadius: 8, timing: { enter: 15, stagger: 24, outro: 15 } }
        }
      ]
    }
  ],
  sample: {
    clipData: {
      headline: "What the new EU battery rules mean for carmakers",
      subline: "Carbon labels, recycled content and a battery passport arrive in stages from 2025",
      figures: [
        { label: "Recycled cobalt by 2031", value: 16, unit: "%" },
        { label: "Passport due", value: 2027 }
      ],
      bullets: [
        "Carbon footprint labels become mandatory for EV batteries",
        "Minimum recycled content rises in two steps",
        "A digital passport travels with every battery",
        "Removable phone batteries return by 2027",
        "Collection targets double for portable batteries"
      ],
      source: "Official Journal of the EU"
    },
    metaData: {
      title: "EU battery rules explained",
      captionShort: "Five things the EU battery rules change.",
      captionMedium: "Labels, recycled content, passports: what the EU battery regulation asks of carmakers.",
      captionLong: "The EU battery regulation phases in carbon labels, recycled-content quotas and a digital passport.",
      hashtags: ["EU", "batteries", "EV"]
    },
    locales: {
      fr: {
        clipData: {
          headline: "Ce que changent les règles européennes sur les batteries",
          bullets: ["Étiquette carbone obligatoire", "Contenu recyclé minimal", "Passeport numérique"]
        }
      }
    }
  }
}
