import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Option } from "effect"
import { InvalidStateTransition, SchemaValidation } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { signedGroup } from "../../http/ApiGroups.js"
import { ReceiptAnswer, ReceiptBody, ReceiptPath, ReceiptQuery } from "./Receipt.js"

const HTML = "text/html; charset=utf-8"

/**
 * The body as JSON or as the page's form. The route has no credential to check before the body is read, so a form is
 * held to about what the page sends: two short fields.
 */
const ReceiptPayload = HttpApiSchema.Multipart(ReceiptBody, {
  maxParts: Option.some(4),
  maxFieldSize: 16 * 1024,
  maxFileSize: Option.some(16 * 1024),
  maxTotalSize: Option.some(64 * 1024)
})

type Operation = Record<string, any>

/** The route takes JSON as well as the page's form, and answers the form with a page: the document says both. */
const formAndPage = (op: Operation): Operation => {
  const form = op["requestBody"]?.["content"]?.["multipart/form-data"]
  if (form !== undefined) op["requestBody"]["content"] = { "application/json": form, "multipart/form-data": form }
  const ok = op["responses"]?.["200"]
  if (ok?.["content"] !== undefined) ok["content"][HTML] = { schema: { type: "string" } }
  return op
}

/**
 * A post's signed receipt URL (`receipt.url` of every hand-over). No Authentication middleware: the signature (`exp`,
 * `sig`) is the authorisation, so these routes never look at a bearer.
 */
export class ReceiptsApi extends HttpApiGroup.make("receipts")
  .add(
    HttpApiEndpoint.get("page", "/receipts/:postId")
      .setPath(ReceiptPath)
      .setUrlParams(ReceiptQuery)
      .addSuccess(HttpApiSchema.Text({ contentType: HTML }).annotations({ description: "The receipt page." }))
      .annotateContext(
        doc(
          "Show a post's receipt page",
          "A page (no script, nothing fetched) with the post's title, channel, state, platform post id and permalink, " +
            "and a form that records the receipt. No credential. A missing, tampered or expired signature: 403; no " +
            "such post: 404."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("record", "/receipts/:postId")
      .setPath(ReceiptPath)
      .setUrlParams(ReceiptQuery)
      .setPayload(ReceiptPayload)
      .addSuccess(ReceiptAnswer)
      .addError(InvalidStateTransition)
      .addError(SchemaValidation)
      .annotateContext(
        doc(
          "Record where a post was published",
          "Sets the post's `permalink` (an absolute http(s) URL) and, when given and not blank, its `platformPostId` " +
            "(at most 200 characters; otherwise the one recorded stays). JSON answers `{ post: { id, state, " +
            "platformPostId, permalink } }`; the page's form (multipart/form-data) is answered with a page. Taken while " +
            "the post is PUBLISHED, PUBLISHING, UPDATE_FAILED or DELETE_FAILED, any other state is 409 " +
            "`invalid_state_transition`. No credential. A missing, tampered or expired signature: 403; no such post: 404."
        )
      )
      .annotate(OpenApi.Transform, formAndPage)
  )
  .pipe(
    signedGroup(
      "Receipts",
      "Where a handed-over post was published, reported through its signed receipt URL; no credential."
    )
  )
{}
