import { HttpApiBuilder, type HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { FORM_TYPE, mediaTypeOf } from "../../http/MediaType.js"
import { receiptPage, recordedPage } from "./ReceiptPages.js"
import { Receipts } from "./Receipts.js"

/** The receipt page's form, as opposed to a receiver's JSON: the only two bodies the edge lets through. */
const isForm = (request: HttpServerRequest.HttpServerRequest) => mediaTypeOf(request)?.essence === FORM_TYPE

/** Signed receipts: no bearer is read; the signature is checked by `Receipts`. */
export const ReceiptsHttpLive = HttpApiBuilder.group(ClipwrightApi, "receipts", (handlers) =>
  Effect.gen(function*() {
    const receipts = yield* Receipts
    return handlers
      .handle("page", ({ path, urlParams }) =>
        Effect.map(receipts.show(path.postId, urlParams), (post) => receiptPage(post, urlParams)))
      .handle("record", ({ path, payload, request, urlParams }) =>
        Effect.map(
          receipts.record(path.postId, urlParams, payload),
          (answer) =>
            isForm(request) ? recordedPage(answer) : answer
        ))
  }))
