import { Deferred, Effect, Exit, Queue, type Scope } from "effect"

export interface GroupCommitOptions<I, O, E> {
  /** One statement for many items (also used for one); answers one result per item, in the items' order. */
  readonly many: (items: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<O>, E>
  readonly maxGroup: number
  /** A span in each caller's trace, covering its wait and the shared statement (`db.operation.batch.size`). */
  readonly span?: { readonly name: string; readonly attributes: Record<string, unknown> }
}

type Pending<I, O, E> = readonly [I, Deferred.Deferred<readonly [O, number], E>]

/**
 * Group commit: one writer, and items that arrive while its statement is in flight are written together by its
 * next one. An idle service writes each item at once (no window, no added latency); under load one round trip and
 * one commit serve a whole group, which is what a node's CPU and PostgreSQL's were spent on. A failed group is retried item by item, so
 * one bad item fails alone and the others keep their all-or-nothing statement each.
 *
 * The statement runs on a worker fiber, outside the caller's transaction: only for writes that stand alone.
 */
export const groupCommit = <I, O, E>(
  options: GroupCommitOptions<I, O, E>
): Effect.Effect<(item: I) => Effect.Effect<O, E>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const queue = yield* Effect.acquireRelease(Queue.unbounded<Pending<I, O, E>>(), Queue.shutdown)

    // Whatever a statement does (fail, die, throw while being built, answer the wrong count) ends in its callers'
    // answers, never in the worker: a dead worker would leave every later caller waiting.
    const run = (items: ReadonlyArray<I>) =>
      Effect.exit(
        Effect.suspend(() => options.many(items)).pipe(
          Effect.filterOrDieMessage((results) => results.length === items.length, "group commit: one result per item")
        )
      )
    const one = ([item, done]: Pending<I, O, E>) =>
      Effect.flatMap(run([item]), (exit) => Deferred.done(done, Exit.map(exit, (results) => [results[0]!, 1] as const)))
    const settle = (group: ReadonlyArray<Pending<I, O, E>>) =>
      group.length === 1 ?
        one(group[0]!) :
        Effect.flatMap(run(group.map(([item]) => item)), (exit) =>
          Exit.isSuccess(exit)
            ? Effect.sync(() =>
              group.forEach(([, done], i) =>
                Deferred.unsafeDone(done, Exit.succeed([exit.value[i]!, group.length] as const))
              )
            )
            : Effect.forEach(group, one, { discard: true }))

    // Callers carry the trace (see `span`); a worker's own spans would be orphans.
    const worker = Queue.takeBetween(queue, 1, options.maxGroup).pipe(
      Effect.flatMap((chunk) => settle(Array.from(chunk))),
      Effect.forever,
      Effect.withTracerEnabled(false)
    )
    yield* Effect.forkScoped(worker)

    const enqueue = (item: I) =>
      Effect.flatMap(Deferred.make<readonly [O, number], E>(), (done) =>
        Effect.zipRight(Queue.offer(queue, [item, done] as const), Deferred.await(done)))
    const span = options.span
    if (span === undefined) {
      return (item: I) =>
        Effect.map(enqueue(item), ([result]) => result)
    }
    return (item: I) =>
      enqueue(item).pipe(
        Effect.tap(([, size]) => Effect.annotateCurrentSpan("db.operation.batch.size", size)),
        Effect.map(([result]) => result),
        Effect.withSpan(span.name, { kind: "client", attributes: span.attributes })
      )
  })
