import { createHash } from "node:crypto"
import MailComposer from "nodemailer/lib/mail-composer"
import { escapeHtml } from "../../http/Html.js"
import { POSTS_PER_MAIL, type WaitingPost } from "./ApprovalRequestsRepo.js"

export interface ApprovalRequestInput {
  /** Becomes the Message-ID (and the outbox file name without SMTP_URL). */
  readonly mailId: string
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly workspaceName: string
  readonly publicBaseUrl: string
  readonly posts: ReadonlyArray<WaitingPost>
  readonly date: Date
}

const titleOf = (post: WaitingPost) => post.title === null || post.title === "" ? "(untitled post)" : post.title

export const approvalLink = (publicBaseUrl: string, approvalId: string) =>
  `${publicBaseUrl}/console/approvals/${encodeURIComponent(approvalId)}`

export const requestSubject = (workspaceName: string, n: number) =>
  n === 1
    ? `1 post waits for your approval in ${workspaceName}`
    : `${n} posts wait for your approval in ${workspaceName}`

const textBody = (input: ApprovalRequestInput, shown: ReadonlyArray<WaitingPost>) => {
  const lines = shown.map((post) =>
    `- ${titleOf(post)}\n  Channel: ${post.channelName}\n  ${approvalLink(input.publicBaseUrl, post.approvalId)}`
  )
  const more = input.posts.length - shown.length
  return [
    `These posts in ${input.workspaceName} wait for a person to approve or reject them:`,
    "",
    ...lines,
    ...(more > 0 ? ["", `…and ${more} more: ${input.publicBaseUrl}/console/approvals?state=PENDING`] : []),
    "",
    "You get this email because you own the workspace or are one of its Operations members. At most one such email",
    "is sent per workspace every 5 minutes."
  ].join("\n")
}

const htmlBody = (input: ApprovalRequestInput, shown: ReadonlyArray<WaitingPost>) => {
  const items = shown.map((post) => {
    const url = escapeHtml(approvalLink(input.publicBaseUrl, post.approvalId))
    return `<li><a href="${url}">${escapeHtml(titleOf(post))}</a><br>Channel: ${escapeHtml(post.channelName)}</li>`
  })
  const more = input.posts.length - shown.length
  const all = escapeHtml(`${input.publicBaseUrl}/console/approvals?state=PENDING`)
  return `<!doctype html><html lang="en"><body>` +
    `<p>These posts in ${escapeHtml(input.workspaceName)} wait for a person to approve or reject them:</p>` +
    `<ul>${items.join("")}</ul>` +
    (more > 0 ? `<p><a href="${all}">…and ${more} more</a></p>` : "") +
    `<p>You get this email because you own the workspace or are one of its Operations members. At most one such ` +
    `email is sent per workspace every 5 minutes.</p></body></html>`
}

/** One approval-request email: each waiting post's title, channel and the console page where it is decided. */
export const composeApprovalRequest = async (input: ApprovalRequestInput) => {
  const shown = input.posts.slice(0, POSTS_PER_MAIL)
  const subject = requestSubject(input.workspaceName, input.posts.length)
  const composer = new MailComposer({
    from: input.from,
    to: [...input.to],
    subject,
    messageId: `<${input.mailId}@clipwright>`,
    date: input.date,
    baseBoundary: createHash("sha256").update(`boundary:${input.mailId}`).digest("hex").slice(0, 24),
    text: textBody(input, shown),
    html: htmlBody(input, shown),
    newline: "windows",
    disableFileAccess: true,
    disableUrlAccess: true
  })
  return { raw: await composer.compile().build(), subject }
}
