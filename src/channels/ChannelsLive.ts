import { Layer } from "effect"
import { ChannelRepo } from "./ChannelRepo.js"
import { Channels } from "./Channels.js"
import { ChannelsHttpLive } from "./ChannelsHttp.js"
import { HandOverLive } from "./handover/HandOverLive.js"
import { Receipts } from "./handover/Receipts.js"
import { ReceiptsHttpLive } from "./handover/ReceiptsHttp.js"
import { ReceiptsRepo } from "./handover/ReceiptsRepo.js"
import { JobDispatcher } from "./jobs/JobDispatcher.js"
import { JobRepo } from "./jobs/JobRepo.js"
import { UnheardRenderEnds } from "./jobs/UnheardRenderEnds.js"
import { MatchingChannels } from "./MatchingChannels.js"
import { SubscriptionRepo } from "./SubscriptionRepo.js"
import { Subscriptions } from "./Subscriptions.js"

/**
 * Channels, their subscriptions and their jobs: the routes, the services, the job dispatcher, the sweep for jobs that
 * missed their render's end, and the repositories the channel entity writes.
 */
export const ChannelsLive = Layer.merge(ChannelsHttpLive, ReceiptsHttpLive).pipe(
  Layer.provideMerge(Layer.mergeAll(
    Subscriptions.layer,
    MatchingChannels.layer,
    JobDispatcher.layer,
    UnheardRenderEnds,
    Receipts.layer,
    HandOverLive
  )),
  Layer.provideMerge(Channels.layer),
  Layer.provideMerge(Layer.mergeAll(ChannelRepo.layer, SubscriptionRepo.layer, JobRepo.layer, ReceiptsRepo.layer))
)

export { ChannelBrandWearers } from "./ChannelBrandWearers.js"
export { ChannelClipListeners } from "./jobs/ChannelClipListeners.js"
export { ChannelListeners } from "./ChannelListeners.js"
export { ChannelRenderListeners } from "./jobs/ChannelRenderListeners.js"
