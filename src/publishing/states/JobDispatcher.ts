import { Context, Duration, Effect, Layer, Queue } from "effect"
import { ChannelEntity } from "../../channels/ChannelEntity.js"
import { continuingTrace } from "../../domain/TraceParent.js"
import { type ClaimedJob, JobRepo } from "./JobRepo.js"

/**
 * The pace of hand-over: a claim of at most BATCH jobs every PERIOD, at most IN_FLIGHT starting at once, each awaited.
 * Starting a job costs its channel's entity several statements; unpaced, a burst of events starved the ingest path
 * that wrote them (measured: 1,900 → 454 accepted events/s). Paced, jobs beyond the pace wait durably as ACCEPTED,
 * visible in the pipeline view, and start as the burst passes.
 */
const BATCH = 25
const PERIOD = Duration.millis(250)
const IN_FLIGHT = 8
const START_TIMEOUT = Duration.seconds(30)
const AGAIN_AFTER_SECONDS = 30
const IDLE_POLL = Duration.seconds(1)

/**
 * Hands jobs waiting to start (status ACCEPTED, written by ingest) to their channels' entities. Ingest writes no
 * entity message on its hot path: it wakes this node's dispatcher, which claims waiting jobs in batches (any node may
 * claim; `FOR UPDATE SKIP LOCKED` keeps two from taking the same job) and sends each a StartJob. A job claimed by a
 * node that died before sending is claimed again after 30 s; every node also looks once a second, so nothing waits on
 * a wake-up that was lost.
 */
export class JobDispatcher extends Context.Tag("clipwright/publishing/states/JobDispatcher")<JobDispatcher, {
  /** New jobs are waiting: claim now rather than at the next look. */
  readonly wake: Effect.Effect<void>
}>() {
  static readonly layer = Layer.scoped(
    JobDispatcher,
    Effect.gen(function*() {
      const repo = yield* JobRepo
      const channel = yield* ChannelEntity.client
      const wakes = yield* Effect.acquireRelease(Queue.sliding<void>(1), Queue.shutdown)

      // Each start is awaited (bounded), so no more than IN_FLIGHT are being started by this node at any time; one
      // that takes too long is left to finish on its own (its message is stored; StartJob is uninterruptible from
      // the client's side, so the timeout does not cancel it) while the next ones go on. Whatever a start answers,
      // an interruption included, is its own: the job is handed over again after 30 s, and the batch goes on.
      const start = (job: ClaimedJob) =>
        channel(job.channelId).StartJob({
          workspaceId: job.workspaceId,
          jobId: job.id,
          claim: job.dispatchedAt.toISOString()
        })
          .pipe(
            continuingTrace(job.traceParent),
            Effect.timeout(START_TIMEOUT),
            Effect.catchAllCause(() => Effect.void)
          )

      const handOver = Effect.gen(function*() {
        const claimed = yield* repo.claimWaitingAnyWorkspace(BATCH, AGAIN_AFTER_SECONDS)
        yield* Effect.forEach(claimed, start, { concurrency: IN_FLIGHT, discard: true })
        return claimed.length
      })

      const loop = Effect.gen(function*() {
        const [elapsed, handed] = yield* Effect.timed(handOver.pipe(
          Effect.catchAllCause((cause) => Effect.as(Effect.logWarning("job dispatcher: a hand-over failed", cause), 0))
        ))
        // A full batch means more are waiting: go on at the pace; otherwise wait for a wake-up or the next look.
        if (handed < BATCH) yield* Effect.raceFirst(Queue.take(wakes), Effect.sleep(IDLE_POLL))
        else yield* Effect.sleep(Duration.max(Duration.zero, Duration.subtract(PERIOD, elapsed)))
      }).pipe(Effect.forever, Effect.withTracerEnabled(false))
      yield* Effect.forkScoped(loop)

      return { wake: Effect.asVoid(Queue.offer(wakes, undefined)) }
    })
  )
}
