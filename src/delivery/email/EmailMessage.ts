import { createHash } from "node:crypto"
import MailComposer from "nodemailer/lib/mail-composer"
import type { DeliveryEvent, PostChanges } from "../../posts/PostChanges.js"
import { type EmailPost, htmlBody, stillCid, textBody } from "./EmailBodies.js"

export type { EmailPost } from "./EmailBodies.js"

export interface EmailInput {
  /** Becomes the Message-ID, so every attempt and redelivery is the same message to the reader's mail client. */
  readonly deliveryId: string
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly workspaceName: string
  readonly event: DeliveryEvent
  readonly posts: ReadonlyArray<EmailPost>
  /** `post.update` only: what changes. */
  readonly changes?: PostChanges | undefined
  /** The Date header (the composition time, kept with the delivery). */
  readonly date: Date
}

export interface ComposedEmail {
  /** The whole RFC 5322 message, sent as is on every attempt. */
  readonly raw: Uint8Array
  readonly subject: string
}

const SUBJECT_TITLE_MAX = 120

const shortTitle = (title: string) =>
  title.length > SUBJECT_TITLE_MAX ? `${title.slice(0, SUBJECT_TITLE_MAX - 1)}…` : title

export const subjectOf = (event: DeliveryEvent, titles: ReadonlyArray<string>): string => {
  const n = titles.length
  const first = shortTitle(titles[0] ?? "")
  const more = n > 1 ? " …" : ""
  switch (event) {
    case "post.publish":
      return n === 1 ? `New post: ${first}` : `${n} new posts: ${first}${more}`
    case "post.update":
      return n === 1 ? `Post update: ${first}` : `${n} post updates: ${first}${more}`
    case "post.delete":
      return n === 1 ? `Remove post: ${first}` : `Remove ${n} posts: ${first}${more}`
  }
}

/**
 * The hand-over email of one delivery: plain text and HTML with each post's facts, its still inline. The same input
 * gives the same bytes (fixed Message-ID, Date and multipart boundaries), so a stored message can be checked.
 */
export const composeEmail = async (input: EmailInput): Promise<ComposedEmail> => {
  const subject = subjectOf(input.event, input.posts.map((item) => item.post.title))
  const attachments = input.posts.flatMap((item) =>
    item.still === null
      ? []
      : [{
        filename: `still-${item.post.id}.jpg`,
        content: Buffer.from(item.still.bytes),
        contentType: item.still.mimeType,
        cid: stillCid(item.post.id),
        contentDisposition: "inline"
      }]
  )
  const composer = new MailComposer({
    from: input.from,
    to: [...input.to],
    subject,
    messageId: `<${input.deliveryId}@clipwright>`,
    date: input.date,
    baseBoundary: createHash("sha256").update(`boundary:${input.deliveryId}`).digest("hex").slice(0, 24),
    text: textBody(input),
    html: htmlBody(input),
    attachments,
    // CRLF throughout, as SMTP carries it: the stored message is byte for byte what the server receives.
    newline: "windows",
    disableFileAccess: true,
    disableUrlAccess: true
  })
  const raw = await composer.compile().build()
  return { raw, subject }
}
