import { Layer } from "effect"
import { ChannelRepo } from "./ChannelRepo.js"
import { Channels } from "./Channels.js"
import { ChannelsHttpLive } from "./ChannelsHttp.js"
import { MatchingChannels } from "./MatchingChannels.js"
import { SubscriptionRepo } from "./SubscriptionRepo.js"
import { Subscriptions } from "./Subscriptions.js"

/**
 * Channels and their subscriptions: the routes, the services and the repositories the channel entity writes for them.
 * The jobs the entity runs are publishing's (src/publishing/states/JobMachineLive.ts).
 */
export const ChannelsLive = ChannelsHttpLive.pipe(
  Layer.provideMerge(Layer.merge(Subscriptions.layer, MatchingChannels.layer)),
  Layer.provideMerge(Channels.layer),
  Layer.provideMerge(Layer.merge(ChannelRepo.layer, SubscriptionRepo.layer))
)

export { ChannelBrandWearers } from "./ChannelBrandWearers.js"
export { ChannelListeners } from "./ChannelListeners.js"
