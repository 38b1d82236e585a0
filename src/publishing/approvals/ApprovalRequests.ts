import { Data, Effect, Layer } from "effect"
import { AppConfig } from "../../Config.js"
import { MailTransport } from "../../delivery/email/MailTransport.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { newUlid } from "../../domain/Ulid.js"
import { sweepEvery } from "../../sql/Sweeps.js"
import { composeApprovalRequest } from "./ApprovalRequestMail.js"
import { ApprovalRequestsRepo } from "./ApprovalRequestsRepo.js"

const SWEEP_EVERY = "5 seconds"

/** Undoes a claim that listed nothing or an email the server did not take: the posts stay to be told. */
class NotSent extends Data.TaggedError("NotSent")<{ readonly reason: string }> {}

/**
 * Approval requests by email. Every node looks every 5 s for workspaces with pending approvals no email listed yet;
 * for each, one transaction takes the workspace's 5-minute window (a row in PostgreSQL, so restarts and other nodes
 * see it), marks the approvals listed and hands the email to SMTP_URL or the outbox. A refused email rolls it all
 * back and is tried at the next sweep; a node dying between the server's acceptance and the commit sends it twice.
 */
export const ApprovalRequestsLive = Layer.scopedDiscard(Effect.gen(function*() {
  const repo = yield* ApprovalRequestsRepo
  const mail = yield* MailTransport
  const { publicBaseUrl } = yield* AppConfig
  const from = `clipwright@${new URL(publicBaseUrl).hostname}`

  const tell = (workspaceId: WorkspaceId) =>
    repo.withTransaction(Effect.gen(function*() {
      if (!(yield* repo.claim(workspaceId))) return
      const posts = yield* repo.announce(workspaceId)
      if (posts.length === 0) return yield* new NotSent({ reason: "nothing left to list" })
      const { name, recipients } = yield* repo.audience(workspaceId)
      if (recipients.length === 0) {
        return yield* Effect.logInfo("Posts wait for approval; the workspace has no owner or Operations to ask")
      }
      const mailId = `approvals-${newUlid()}`
      const composed = yield* Effect.promise(() =>
        composeApprovalRequest({
          mailId,
          from,
          to: recipients,
          workspaceName: name,
          publicBaseUrl,
          posts,
          date: new Date()
        })
      )
      const outcome = yield* mail.send({ deliveryId: mailId, from, to: recipients, raw: composed.raw })
      if (!outcome.ok) return yield* new NotSent({ reason: outcome.error ?? `SMTP ${outcome.statusCode}` })
      yield* Effect.logInfo("Asked for approvals by email").pipe(Effect.annotateLogs({ posts: posts.length }))
    })).pipe(
      Effect.catchTag("NotSent", (failed) =>
        failed.reason === "nothing left to list"
          ? Effect.void
          : Effect.logWarning("An approval-request email was not taken; tried again shortly", failed.reason)),
      Effect.annotateLogs({ workspaceId }),
      Effect.orDie
    )

  const sweep = Effect.flatMap(
    repo.due,
    (due) => Effect.forEach(due, (row) => tell(row.workspaceId), { discard: true })
  )
  yield* sweepEvery("approval request sweep", SWEEP_EVERY, sweep)
})).pipe(Layer.provide(ApprovalRequestsRepo.layer), Layer.provide(MailTransport.layer))
