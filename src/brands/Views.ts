import { DateTime } from "effect"
import type { BrandChannel, BrandSummary, BrandView } from "./Brand.js"
import type { BrandRecord } from "./BrandRecord.js"

export const toView = (row: BrandRecord): BrandView => ({
  id: row.id,
  name: row.name,
  enabled: row.enabled,
  style: row.style
})

export const toSummary = (row: BrandRecord, channels: ReadonlyArray<BrandChannel>): BrandSummary => {
  const { style } = row
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    primaryColor: style.design.first,
    secondaryColor: style.design.second,
    logoUrl: style.logo?.url ?? null,
    badgeEnabled: style.badge.enabled,
    badgeKind: style.badge.kind,
    backgroundKind: style.background.kind,
    introRatios: Object.keys(style.intro.clips).sort(),
    outroRatios: Object.keys(style.outro.clips).sort(),
    hasSound: style.sound.asset !== null,
    channels,
    updatedAt: DateTime.formatIso(row.updatedAt)
  }
}
