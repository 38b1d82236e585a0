import { Duration, Effect, Metric, MetricBoundaries, MetricLabel } from "effect"

/**
 * Every metric the service records, named `clipwright.*`; docs/operating.md "Metrics" says what each means. Durations are in
 * seconds. The cluster's own gauges (`effect_cluster_entities` by entity type, `effect_cluster_shards`,
 * `effect_cluster_singletons`) go out with these.
 */

/** Ingest events that landed accepted (their jobs stored), by `origin` and `input`. */
export const acceptedEvents = Metric.counter("clipwright.ingest.accepted", {
  description: "Ingest events accepted, with their jobs stored",
  incremental: true
})

/** Jobs in each status, read from the database every 10 s (the same on every node: read one, do not add them). */
export const jobsByStatus = Metric.gauge("clipwright.jobs", { description: "Jobs by status, cluster-wide" })

/** Render jobs waiting for a slot (PENDING) or just given one (SUBMITTED), cluster-wide. */
export const renderQueue = Metric.gauge("clipwright.render.queue", { description: "Render jobs waiting, by state" })

/** How long a render waited for its turn at a slot, by `workspace` (p50 and p95 kept over the last 10 minutes). */
export const renderQueueWait = Metric.summary({
  name: "clipwright.render.queue.wait",
  maxAge: "10 minutes",
  maxSize: 1000,
  error: 0.01,
  quantiles: [0.5, 0.95],
  description: "Seconds a render waited for a slot, per workspace"
})

/** How long drawing a render took on this node, by final `state` and `origin`. */
export const renderDuration = Metric.histogram(
  "clipwright.render.duration",
  MetricBoundaries.exponential({ start: 0.5, factor: 2, count: 11 }),
  "Render drawing time in seconds"
)

/** Every recorded hand-over attempt, by `state`, `via`, `event` and `attempt` (1, 2, … or `redelivery`). */
export const deliveryAttempts = Metric.counter("clipwright.deliveries.attempts", {
  description: "Hand-over attempts recorded",
  incremental: true
})

/** Deliveries that used up their retries, by `via` and `event`. */
export const deadDeliveries = Metric.counter("clipwright.deliveries.dead", {
  description: "Deliveries that died after their last attempt",
  incremental: true
})

/** How late a post-list package fired: its firing time less its `scheduledFor`. */
export const packageLateness = Metric.histogram(
  "clipwright.postlists.fire.lateness",
  MetricBoundaries.fromIterable([0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300]),
  "Seconds between a package's scheduledFor and its firing"
)

/** The metric's series for these attributes. */
export const withTags = <Type, In, Out>(metric: Metric.Metric<Type, In, Out>, tags: Readonly<Record<string, string>>) =>
  Metric.taggedWithLabels(metric, Object.entries(tags).map(([key, value]) => MetricLabel.make(key, value)))

export const countAccepted = (
  events: ReadonlyArray<{ readonly status: string; readonly origin: string; readonly input: string }>
) =>
  Effect.forEach(
    events.filter((event) => event.status === "ACCEPTED"),
    (event) => Metric.increment(withTags(acceptedEvents, { origin: event.origin, input: event.input })),
    { discard: true }
  )

export interface AttemptFacts {
  readonly state: string
  readonly via: string
  readonly event: string
  readonly attempt: number
  readonly redelivery: boolean
}

export const countAttempts = (attempts: ReadonlyArray<AttemptFacts>) =>
  Effect.forEach(attempts, (a) =>
    Effect.zipRight(
      Metric.increment(withTags(deliveryAttempts, {
        state: a.state,
        via: a.via,
        event: a.event,
        attempt: a.redelivery ? "redelivery" : String(a.attempt)
      })),
      a.state === "DEAD" && !a.redelivery
        ? Metric.increment(withTags(deadDeliveries, { via: a.via, event: a.event }))
        : Effect.void
    ), { discard: true })

/** Runs a render's drawing and records how long it took under the state it ended in. */
export const timedRender =
  (origin: string) => <A extends { readonly state: string }, E, R>(draw: Effect.Effect<A, E, R>) =>
    Effect.tap(Effect.timed(draw), ([took, outcome]) =>
      Metric.update(
        withTags(renderDuration, { state: outcome.state, origin }),
        Duration.toSeconds(took)
      )).pipe(Effect.map(([, outcome]) => outcome))

export const recordFiring = (scheduledFor: Date, firedAt: Date) =>
  Metric.update(packageLateness, Math.max(0, firedAt.getTime() - scheduledFor.getTime()) / 1000)
