import { Schema } from "effect"

/**
 * What the job actions and decisions answer: the channel entity's replies (ChannelEntity) and the HTTP answers
 * (JobActionsApi, ApprovalsApi) are these same schemas.
 */
export const Cancelled = Schema.Struct({
  ok: Schema.Literal(true),
  cancelledPosts: Schema.Number,
  renderStopped: Schema.Boolean
})
/** An update or delete made its deliveries (none again for a retried request). */
export const Queued = Schema.Struct({ ok: Schema.Literal(true), queued: Schema.Number })
/** An approval decided: the posts it released or stopped. */
export const Decided = Schema.Struct({
  postIds: Schema.Array(Schema.String),
  state: Schema.Literal("APPROVED", "REJECTED")
})
export const Reposted = Schema.Struct({ ok: Schema.Literal(true), postGroupId: Schema.String })
