import { Context, Effect, Layer, Schedule } from "effect"
import { MatchingChannels } from "../channels/MatchingChannels.js"
import { digestOf } from "../domain/Digest.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { newUlid } from "../domain/Ulid.js"
import { IngestLedger } from "../ingest/IngestLedger.js"
import { planJobs } from "../ingest/Landings.js"
import type { PackageRecord } from "./PostListRecord.js"

/** The event a package became: its row's id and when it landed. */
export interface Fired {
  readonly ingestEventId: string
  readonly firedAt: Date
}

/**
 * A landing the storage refused is tried again until it lands (every 5 s at most): giving up would answer the timer
 * and leave the package SCHEDULED with no timer. While the database is away nothing else of the list could be written
 * either; the timer's message stays unprocessed, so a node that dies meanwhile hands it to the next.
 */
const landingRetry = Schedule.exponential("200 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")))

/**
 * A package becoming an event like any other: one ingest event (origin `manual`, input `queue`) and one job per
 * channel listening to its list, each drawing the package's own template, variant and version. The eventId is
 * `package:<id>`, so a timer run again after a crash finds the event it landed the first time instead of a second one.
 */
const make = Effect.gen(function*() {
  const ledger = yield* IngestLedger
  const matching = yield* MatchingChannels

  const fire = Effect.fn("PackageFiring.fire")(function*(
    workspaceId: WorkspaceId,
    listName: string,
    pkg: PackageRecord,
    requestId: string
  ) {
    const listening = yield* matching.forQueue(workspaceId, pkg.queueId)
    const matches = listening.map((match) => ({
      ...match,
      templateVariant: pkg.templateVariant,
      templateVersion: pkg.templateVersion
    }))
    const id = newUlid()
    const firedAt = new Date()
    const plan = planJobs(workspaceId, id, "manual", pkg.templateId, matches, null)
    const landed = yield* ledger.land({
      event: {
        id,
        workspaceId,
        eventId: `package:${pkg.id}`,
        bodyHash: digestOf({ input: "queue", packageId: pkg.id }),
        input: "queue",
        origin: "manual",
        streamId: null,
        feedId: null,
        broadcastId: null,
        queueId: pkg.queueId,
        details: listName,
        postTitle: pkg.title,
        status: matches.length > 0 ? "ACCEPTED" : "NO_MATCH",
        occurredAt: pkg.scheduledFor,
        locale: null,
        data: pkg.data,
        normalized: pkg.data,
        mappingErrors: null,
        warnings: [],
        publishAt: null,
        timezone: null,
        requestId
      },
      jobs: plan.jobs
    }).pipe(
      // Said each time: a package that stays SCHEDULED while its landing is refused should show why in the log.
      Effect.tapError((error) =>
        Effect.logWarning("Landing a fired post-list package failed; trying again", { packageId: pkg.id, error })
      ),
      Effect.retry(landingRetry),
      Effect.orDie
    )
    return landed._tag === "Landed"
      ? { ingestEventId: id, firedAt } satisfies Fired
      : { ingestEventId: landed.row.id, firedAt: landed.row.receivedAt } satisfies Fired
  })

  return { fire }
})

export class PackageFiring extends Context.Tag("clipwright/queues/PackageFiring")<
  PackageFiring,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(PackageFiring, make)
}
