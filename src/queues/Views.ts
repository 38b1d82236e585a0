import type { Package, Queue } from "./PostList.js"
import type { PackageRow, QueueRow, SubscriberRow } from "./PostListQuery.js"

export const toPackage = (row: PackageRow): Package => ({
  id: row.id,
  title: row.title,
  templateId: row.templateId,
  templateVariant: row.templateVariant,
  templateVersion: row.templateVersion,
  data: row.data,
  locales: null,
  scheduledFor: row.scheduledFor.toISOString(),
  state: row.state,
  firedAt: row.firedAt?.toISOString() ?? null,
  ingestEventId: row.ingestEventId,
  error: row.error,
  outcome: row.ingestEventId === null ? null : {
    channels: row.channels ?? 0,
    rendering: row.rendering ?? 0,
    rendered: row.rendered ?? 0,
    renderFailed: row.renderFailed ?? 0,
    published: row.published ?? 0,
    awaitingApproval: row.awaitingApproval ?? 0,
    publishFailed: row.publishFailed ?? 0
  }
})

export const toQueue = (
  row: QueueRow,
  packages: ReadonlyArray<PackageRow>,
  subscribers: ReadonlyArray<SubscriberRow>
): Queue => {
  const own = subscribers.filter((s) => s.queueId === row.id)
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    posts: packages.filter((p) => p.queueId === row.id).map(toPackage),
    subscribers: own.length,
    listeners: own.filter((s) => s.listening).map(({ brandName, channelId, channelName }) => ({
      channelId,
      channelName,
      brandName
    }))
  }
}
