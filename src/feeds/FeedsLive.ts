import { Layer } from "effect"
import { EntitlementRepo } from "./EntitlementRepo.js"
import { Entitlements } from "./Entitlements.js"
import { Feeds } from "./Feeds.js"
import { FeedsAdminHttpLive } from "./FeedsAdminHttp.js"
import { FeedsHttpLive } from "./FeedsHttp.js"
import { FeedSwitches } from "./FeedSwitches.js"
import { FeedSwitchRepo } from "./FeedSwitchRepo.js"

/**
 * The shipped feeds: catalogue, format descriptions, example clips, the operator's entitlements and each workspace's
 * switches (it asks channels for listeners through `FeedListeners`).
 */
export const FeedsLive = Layer.merge(FeedsHttpLive, FeedsAdminHttpLive).pipe(
  Layer.provideMerge(Layer.merge(Feeds.layer, FeedSwitches.layer)),
  Layer.provideMerge(Entitlements.layer),
  Layer.provideMerge(Layer.merge(EntitlementRepo.layer, FeedSwitchRepo.layer))
)
