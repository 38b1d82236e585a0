import { Clock, Context, Effect, Layer, Option } from "effect"
import { Forbidden, InvalidStateTransition, NotFound } from "../../domain/Errors.js"
import { Signing } from "../../storage/Signing.js"
import { RECEIPT_STATES, type ReceiptAnswer, type ReceiptBody, type ReceiptPost, type ReceiptQuery } from "./Receipt.js"
import { receiptPath } from "./ReceiptLinks.js"
import { ReceiptsRepo } from "./ReceiptsRepo.js"

const refused = (post: ReceiptPost) =>
  new InvalidStateTransition({
    message: `Post ${post.id} is ${post.state}; a receipt is taken only while it is ${RECEIPT_STATES.join(", ")}.`
  })

/**
 * A post's receipt: where the receiver (or a person reading the hand-over email) says the post was published. No
 * credential: the signed URL names the post, and a bad signature is refused before anything about the post is said.
 */
const make = Effect.gen(function*() {
  const repo = yield* ReceiptsRepo
  const signing = yield* Signing

  const signedPost = Effect.fn("Receipts.signedPost")(function*(postId: string, query: ReceiptQuery) {
    const now = new Date(yield* Clock.currentTimeMillis)
    const { exp, sig } = query
    const valid = exp !== undefined && sig !== undefined && signing.verify(receiptPath(postId), exp, sig, now)
    if (!valid) return yield* new Forbidden({ message: "This receipt URL is wrong, tampered with or expired." })
    const post = Option.getOrUndefined(yield* repo.find(postId))
    if (post === undefined) return yield* new NotFound({ message: `No post ${postId}.` })
    return post
  })

  const record = Effect.fn("Receipts.record")(function*(postId: string, query: ReceiptQuery, body: ReceiptBody) {
    const post = yield* signedPost(postId, query)
    if (!RECEIPT_STATES.includes(post.state)) return yield* refused(post)
    const platformPostId = body.platformPostId === undefined || body.platformPostId.trim() === ""
      ? null
      : body.platformPostId
    const recorded = yield* repo.record(post.workspaceId, post.id, RECEIPT_STATES, {
      permalink: body.permalink,
      platformPostId
    })
    if (Option.isSome(recorded)) return { post: recorded.value } satisfies ReceiptAnswer
    // It moved between the read and the write: say which state it is in now.
    const now = Option.getOrUndefined(yield* repo.find(postId))
    if (now === undefined) return yield* new NotFound({ message: `No post ${postId}.` })
    return yield* refused(now)
  })

  return {
    /** The post the signed URL names, as its receipt page shows it. */
    show: signedPost,
    /** Writes `permalink` and, when given, `platformPostId`; answers the post's platform fields. */
    record
  }
})

export class Receipts extends Context.Tag("clipwright/delivery/handover/Receipts")<
  Receipts,
  Effect.Effect.Success<typeof make>
>() {
  /** Brings `Signing` (memoised with its other uses). Needs `ReceiptsRepo`. */
  static readonly layer = Layer.effect(Receipts, make).pipe(Layer.provide(Signing.layer))
}
