import { Layer } from "effect"
import { Signing } from "../../storage/Signing.js"
import { ClipStills } from "../email/ClipStills.js"
import { MailTransport } from "../email/MailTransport.js"
import { DeliveryMaker } from "./DeliveryMaker.js"
import { DeliveryMessages } from "./DeliveryMessages.js"
import { DeliveryRepo } from "./DeliveryRepo.js"
import { DeliverySend } from "./DeliverySend.js"
import { DueRepo } from "./DueRepo.js"
import { FollowUps } from "./FollowUps.js"
import { HandOverDispatcherLive } from "./HandOverDispatcher.js"
import { PostOutcomes } from "./PostOutcomes.js"
import { PostOuts } from "./PostOuts.js"
import { ReceiptLinks } from "./ReceiptLinks.js"
import { RetrySchedule } from "./RetrySchedule.js"
import { WebhookSender } from "./WebhookSender.js"
import { SigningClock } from "./WebhookSigning.js"

/**
 * Hand-over: what the HandOver entity and the due-post dispatcher stand on (docs/pipeline.md "Hand-over"), and the
 * follow-ups (updates and removals of published posts) publishing asks for.
 */
export const HandOverLive = Layer.mergeAll(HandOverDispatcherLive, DeliverySend.layer, FollowUps.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(DeliveryMaker.layer, DeliveryMessages.layer)),
  Layer.provideMerge(Layer.mergeAll(PostOuts.layer, ClipStills.layer)),
  Layer.provideMerge(Layer.mergeAll(
    DueRepo.layer,
    DeliveryRepo.layer,
    PostOutcomes.layer,
    ReceiptLinks.layer,
    RetrySchedule.layer,
    SigningClock.layer,
    WebhookSender.layer,
    MailTransport.layer
  )),
  // The channel entity signs the links of the updates it queues.
  Layer.provideMerge(Signing.layer)
)
