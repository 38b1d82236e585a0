/**
 * An event from your systems, drawn into a video for the Shorts channel, approved, and handed over by webhook (the
 * receiver's line) and by email (an `.eml` in the outbox).
 */
import * as path from "node:path"
import { ulid } from "ulid"
import { type Api, ok, pollUntil, printChanges } from "../support/api.js"
import { outboxOf, shown } from "../support/outbox.js"
import type { Started } from "../support/processes.js"
import type { Channels } from "./channels.js"

export interface Handover {
  readonly jobId: string
  readonly webhookLine: string
  readonly emlFile: string
}

/** The job's states after which it changes no more without a person or the hand-over. */
const settled = (state: string) => state === "AWAITING_APPROVAL" || state.endsWith("FAILED") || state === "REJECTED"

export const sendEventAndApprove = async (
  api: Api,
  channels: Channels,
  receiver: Started,
  dataDir: string,
  say: (line: string) => void
): Promise<Handover> => {
  // `eventId` is a ULID of your choosing and the event's idempotency key: sent twice, it is stored once (the second
  // answer is `duplicate`). The answer names one job (`postGroupId`) per channel listening to the stream.
  const sent = await ok(api.POST("/v1/stream", {
    body: {
      streamId: channels.streamId,
      eventId: ulid(),
      occurredAt: new Date().toISOString(),
      data: { title: "Gold climbs to a record" }
    }
  }))
  const job = sent.matched.find((m) => m.channelName === "Shorts")
  if (sent.status !== "accepted" || job === undefined) throw new Error(`the event was not taken: ${sent.status}`)
  say(`event sent: ${sent.status}, job ${job.postGroupId} for ${job.channelName}`)

  // The job waits for a render slot, draws its video, writes the post and waits for its approval.
  const since = Date.now()
  const show = printChanges((state) => say(`  ${state} (${((Date.now() - since) / 1000).toFixed(1)} s)`))
  const watched = await pollUntil("the job to wait for approval", {
    read: () => ok(api.GET("/v1/pipeline/{id}", { params: { path: { id: job.postGroupId } } })),
    done: ({ job }) => settled(job.state),
    onEach: ({ job }) => show(job.state),
    timeoutMs: 120_000
  })
  if (watched.job.state !== "AWAITING_APPROVAL") throw new Error(`the job ended ${watched.job.state}`)

  // A person approves in the console; a key with `approvals:write` may too. Approval releases the post at once.
  const { approvals } = await ok(api.GET("/v1/approvals", { params: { query: { state: "PENDING" } } }))
  const approval = approvals.find((a) => a.postGroupId === job.postGroupId)
  if (approval === undefined) throw new Error("no pending approval for the job")
  const decided = await ok(api.POST("/v1/approvals/{id}", {
    params: { path: { id: approval.id } },
    body: { state: "APPROVED", note: "Looks good" }
  }))
  const postId = decided.postIds[0] ?? ""
  say(`approved post ${postId}`)

  // The receiver verified the signed POST and printed the post it carried.
  const webhookLine = await receiver.waitForLine(new RegExp(`^post\\.publish ${postId} `), 90_000)
  say(`the receiver got: ${webhookLine}`)

  // The same post by email: without SMTP_URL the message is DATA_DIR/outbox/<delivery id>.eml.
  const delivery = await pollUntil("the hand-over email", {
    read: async () =>
      (await ok(api.GET("/v1/deliveries"))).deliveries
        .find((d) => d.via === "email" && d.postIds.includes(postId)),
    done: (email) => email?.state === "DELIVERED",
    timeoutMs: 90_000
  })
  if (delivery === undefined) throw new Error("no email delivery of the post")
  const emlFile = path.join(outboxOf(dataDir), `${delivery.id}.eml`)
  say(`the email hand-over: ${shown(emlFile)}`)
  return { jobId: job.postGroupId, webhookLine, emlFile }
}
