import { HttpServerResponse } from "@effect/platform"
import { escapeHtml } from "../../http/Html.js"
import {
  isAbsoluteHttpUrl,
  PERMALINK_MAX,
  PLATFORM_POST_ID_MAX,
  RECEIPT_STATES,
  type ReceiptAnswer,
  type ReceiptPost,
  type ReceiptQuery
} from "./Receipt.js"

/**
 * The page is self-contained: no script, nothing fetched, no framing, and the form posts only back here. No referrer
 * leaves it, as its URL carries the signature.
 */
const headers = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff"
}

const STYLE = "body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}" +
  "dt{font-weight:600}dd{margin:0 0 .5rem}label{display:block;margin-top:1rem}input{width:100%;padding:.4rem}" +
  "button{margin-top:1rem;padding:.4rem 1rem}"

const page = (title: string, body: string) =>
  HttpServerResponse.text(
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">` +
      `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`,
    { contentType: "text/html; charset=utf-8", headers }
  )

/** A recorded permalink is a link only when it is http(s); a receiver's answer may have stored anything. */
const permalinkHtml = (permalink: string | null) =>
  permalink === null
    ? "<em>none yet</em>"
    : isAbsoluteHttpUrl(permalink)
    ? `<a href="${escapeHtml(permalink)}" rel="noopener noreferrer">${escapeHtml(permalink)}</a>`
    : escapeHtml(permalink)

const facts = (
  post: { readonly state: string; readonly platformPostId: string | null; readonly permalink: string | null }
) =>
  `<dt>State</dt><dd>${escapeHtml(post.state)}</dd>` +
  `<dt>Platform post id</dt><dd>${
    post.platformPostId === null ? "<em>none yet</em>" : escapeHtml(post.platformPostId)
  }</dd>` +
  `<dt>Permalink</dt><dd>${permalinkHtml(post.permalink)}</dd>`

/**
 * The form posts back to this URL with its signature (a relative query keeps any prefix a proxy adds). It must be
 * sent as multipart/form-data: the API's edge refuses a browser's default, application/x-www-form-urlencoded, with
 * 415. The route reads JSON and this form alike, and answers the form with a page.
 */
const form = (query: ReceiptQuery) => {
  const action = `?${new URLSearchParams({ exp: query.exp ?? "", sig: query.sig ?? "" }).toString()}`
  return `<form method="post" action="${escapeHtml(action)}" enctype="multipart/form-data">` +
    `<label for="permalink">Permalink (where the post is published)</label>` +
    `<input id="permalink" name="permalink" type="url" required maxlength="${PERMALINK_MAX}" placeholder="https://">` +
    `<label for="platformPostId">Platform post id (optional)</label>` +
    `<input id="platformPostId" name="platformPostId" type="text" maxlength="${PLATFORM_POST_ID_MAX}">` +
    `<button type="submit">Record</button></form>`
}

/** The post and, while it takes one, the receipt form. */
export const receiptPage = (post: ReceiptPost, query: ReceiptQuery) =>
  page(
    `Receipt: ${post.title}`,
    `<h1>${escapeHtml(post.title)}</h1>` +
      `<dl><dt>Channel</dt><dd>${escapeHtml(post.channelName)}</dd>${facts(post)}</dl>` +
      (RECEIPT_STATES.includes(post.state)
        ? `<p>Where was this post published? Enter its link; the platform's id for it is optional.</p>${form(query)}`
        : `<p>This post is ${escapeHtml(post.state)}. A receipt is taken only while a post is ` +
          `${RECEIPT_STATES.join(", ")}.</p>`)
  )

/** The answer to the form: what is recorded now. */
export const recordedPage = (answer: ReceiptAnswer) =>
  page(
    "Receipt recorded",
    `<h1>Receipt recorded</h1><p>Post <code>${escapeHtml(answer.post.id)}</code> now reads:</p>` +
      `<dl>${facts(answer.post)}</dl><p>You can close this page, or open the link again to correct it.</p>`
  )
