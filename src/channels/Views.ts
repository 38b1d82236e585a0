import type { Channel } from "./Channel.js"
import type { ChannelRow } from "./ChannelRecord.js"
import type { SubscriptionRecord } from "./SubscriptionRecord.js"
import { toSubscription } from "./SubscriptionRules.js"
import { surfaceOf } from "./Surfaces.js"

export const toChannel = (row: ChannelRow, subscriptions: ReadonlyArray<SubscriptionRecord>): Channel => {
  const surface = surfaceOf(row.surface)
  return {
    id: row.id,
    name: row.name,
    platform: surface?.platform ?? row.surface,
    surface: row.surface,
    surfaceLabel: surface?.label ?? row.surface,
    ratio: row.ratio,
    locale: row.locale,
    enabled: row.enabled,
    approval: row.approval,
    deliverByEmail: row.deliverByEmail,
    deliverByWebhook: row.deliverByWebhook,
    posting: row.posting,
    syndicates: row.syndicates,
    syndicationToken: row.syndicationToken,
    brand: { id: row.brandId, name: row.brandName, enabled: row.brandEnabled },
    subscriptions: subscriptions.map(toSubscription),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}
