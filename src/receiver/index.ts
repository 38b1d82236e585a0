/** `clipwright/receiver`: what a webhook receiver needs (CONTRACT.md "Webhook wire format"). */
export { RecentIds, type SeenStore, verifyWebhook, type VerifyOptions, type VerifyResult, type WebhookEvent, type WebhookHeaders } from "./Verify.js"
export { SeenFile } from "./SeenFile.js"
export { type ReceiverOptions, type RunningReceiver, startReceiver } from "./Receiver.js"
