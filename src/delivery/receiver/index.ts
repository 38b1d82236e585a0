/** `clipwright/receiver`: what a webhook receiver needs (CONTRACT.md "Webhook wire format"). */
export { type ReceiverOptions, type RunningReceiver, startReceiver } from "./Receiver.js"
export { SeenFile } from "./SeenFile.js"
export {
  RecentIds,
  type SeenStore,
  type VerifyOptions,
  type VerifyResult,
  verifyWebhook,
  type WebhookEvent,
  type WebhookHeaders
} from "./Verify.js"
