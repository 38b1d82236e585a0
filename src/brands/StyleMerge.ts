import type { BrandStylePatch } from "./Brand.js"
import type { BrandStyle } from "./BrandStyle.js"

/**
 * Deep-merges what a client sent into a stored style. The patch schema has no file references, so every slot
 * (logo, assets, clips, sound file, fonts) keeps what is stored; keys this merge does not know pass through.
 */
export const mergeStyle = (base: BrandStyle, patch: BrandStylePatch): BrandStyle => ({
  ...base,
  identity: { ...base.identity, ...patch.identity },
  design: { ...base.design, ...patch.design },
  accent: { ...base.accent, ...patch.accent },
  text: {
    primary: { ...base.text.primary, ...patch.text?.primary },
    secondary: { ...base.text.secondary, ...patch.text?.secondary }
  },
  badge: { ...base.badge, ...patch.badge },
  background: { ...base.background, ...patch.background },
  safeAreas: { ...base.safeAreas, ...patch.safeAreas },
  intro: { ...base.intro, ...patch.intro },
  outro: { ...base.outro, ...patch.outro },
  sound: { ...base.sound, ...patch.sound }
})

/** The record name a patch asks for through `style.identity.name`, if it is one a brand may carry. */
export const identityRename = (patch: BrandStylePatch | undefined): string | undefined => {
  const name = patch?.identity?.name?.trim()
  return name === undefined || name.length === 0 || name.length > 80 ? undefined : name
}
