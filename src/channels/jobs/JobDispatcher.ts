import { Context, Duration, Effect, Layer, Queue } from "effect"
import { ChannelEntity } from "../ChannelEntity.js"
import { JobRepo } from "./JobRepo.js"

/** How many waiting jobs one claim hands over, and when a claimed job still waiting is handed over again. */
const BATCH = 100
const AGAIN_AFTER_SECONDS = 30
const IDLE_POLL = Duration.seconds(1)

/**
 * Hands jobs waiting to start (status ACCEPTED, written by ingest) to their channels' entities. Ingest writes no
 * entity message on its hot path: it wakes this node's dispatcher, which claims waiting jobs in batches (any node may
 * claim; `FOR UPDATE SKIP LOCKED` keeps two from taking the same job) and sends each a StartJob. A job claimed by a
 * node that died before sending is claimed again after 30 s; every node also looks once a second, so nothing waits on
 * a wake-up that was lost.
 */
export class JobDispatcher extends Context.Tag("clipwright/channels/JobDispatcher")<JobDispatcher, {
  /** New jobs are waiting: claim now rather than at the next look. */
  readonly wake: Effect.Effect<void>
}>() {
  static readonly layer = Layer.scoped(
    JobDispatcher,
    Effect.gen(function*() {
      const repo = yield* JobRepo
      const channel = yield* ChannelEntity.client
      const wakes = yield* Effect.acquireRelease(Queue.sliding<void>(1), Queue.shutdown)

      const handOver = Effect.gen(function*() {
        const claimed = yield* repo.claimWaitingAnyWorkspace(BATCH, AGAIN_AFTER_SECONDS)
        yield* Effect.forEach(claimed, (job) =>
          channel(job.channelId).StartJob(
            { workspaceId: job.workspaceId, jobId: job.id, claim: job.dispatchedAt.toISOString() },
            { discard: true }
          ), { concurrency: 16, discard: true })
        return claimed.length
      })

      const loop = Effect.gen(function*() {
        const handed = yield* handOver.pipe(
          Effect.catchAllCause((cause) => Effect.as(Effect.logWarning("job dispatcher: a hand-over failed", cause), 0))
        )
        // A full batch means more are waiting: go on at once; otherwise wait for a wake-up or the next look.
        if (handed < BATCH) yield* Effect.raceFirst(Queue.take(wakes), Effect.sleep(IDLE_POLL))
      }).pipe(Effect.forever, Effect.withTracerEnabled(false))
      yield* Effect.forkScoped(loop)

      return { wake: Effect.asVoid(Queue.offer(wakes, undefined)) }
    })
  )
}
