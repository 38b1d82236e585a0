import { Context, Effect, Either, FiberRef, Layer } from "effect"
import { digestOf } from "../domain/Digest.js"
import { ErrorDetail, SchemaValidation } from "../domain/Errors.js"
import type { Origin } from "../domain/Origin.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { newUlid } from "../domain/Ulid.js"
import { feedBySlugs } from "../feeds/FeedSwitches.js"
import type { BoundFeed } from "../feeds/shipped/ShippedFeed.js"
import { resolveBuild } from "../templates/TemplateRegistry.js"
import { validateContent } from "../templates/Validate.js"
import type { FeedSendAnswer } from "./IngestAnswers.js"
import type { IngestInput, Problem } from "./IngestEventRecord.js"
import { IngestLedger } from "./IngestLedger.js"
import { IngestTargets } from "./IngestTargets.js"
import { planJobs, postTitleOf, settle, wouldMatch } from "./Landings.js"
import type { Schedule } from "./PublishAt.js"

/** A feed event whose content fits its feed's template: ready to land in any workspace. */
export interface FeedEvent {
  readonly bound: BoundFeed
  readonly eventId: string
  readonly occurredAt: string
  readonly origin: Origin
  readonly locale: string | undefined
  readonly data: Readonly<Record<string, unknown>>
  readonly schedule: Schedule
  /** Older than the feed accepts (`maxAgeSeconds`): stored, nothing drawn. */
  readonly stale: boolean
}

const answerStatus = { ACCEPTED: "accepted", NO_MATCH: "no_match", STALE: "stale" } as const

/**
 * Feed events, pushed by a workspace (`/v1/ingest/...`) or broadcast by the platform: checking one against its
 * feed, and landing it in a workspace with one job per channel subscribed to the feed while the workspace has it on.
 */
const make = Effect.gen(function*() {
  const targets = yield* IngestTargets
  const ledger = yield* IngestLedger

  /** The feed the slugs name and the event's content checked against its template; 404 / 400 otherwise. */
  const check = Effect.fn("FeedEvents.check")(function*(
    slugs: { readonly sourceSlug: string; readonly formatSlug: string; readonly inBody: boolean },
    event: Omit<FeedEvent, "bound" | "stale">
  ) {
    const bound = yield* feedBySlugs(slugs.sourceSlug, slugs.formatSlug, slugs.inBody)
    const build = Either.getOrThrow(resolveBuild(bound.feed.templateId, { variant: bound.feed.templateVariant })).build
    const problems = validateContent(build, event.data)
    if (problems.length > 0) {
      return yield* new SchemaValidation({
        message: `The data does not fit the ${bound.source.slug}/${bound.feed.slug} feed's template.`,
        details: problems.map((p) => new ErrorDetail({ ...p, path: "/data" + p.path }))
      })
    }
    const maxAge = bound.feed.maxAgeSeconds
    const stale = maxAge !== null && Date.now() - Date.parse(event.occurredAt) > maxAge * 1000
    return { ...event, bound, stale } satisfies FeedEvent
  })

  /** The channels of the workspace the event reaches now, and what the sender is told about it. */
  const reach = Effect.fnUntraced(function*(workspaceId: WorkspaceId, event: FeedEvent) {
    const warnings: Array<Problem> = []
    if (event.stale) {
      warnings.push({
        path: "/occurredAt",
        message: `Older than the feed accepts (${event.bound.feed.maxAgeSeconds} s); nothing is drawn.`
      })
      return { matches: [], warnings }
    }
    const { matches, on } = yield* targets.feed(workspaceId, event.bound.feed.id)
    if (!on) {
      warnings.push({
        path: "",
        message: "This feed is switched off for the workspace (PUT /v1/feeds); nothing is drawn."
      })
    }
    return { matches, warnings }
  })

  const dryRun = Effect.fn("FeedEvents.dryRun")(function*(workspaceId: WorkspaceId, event: FeedEvent) {
    const { matches, warnings } = yield* reach(workspaceId, event)
    return {
      requestId: yield* FiberRef.get(CurrentRequestId),
      valid: !event.stale,
      normalized: event.data,
      wouldMatch: matches.map(wouldMatch),
      warnings,
      stale: event.stale
    }
  })

  const land = Effect.fn("FeedEvents.land")(function*(
    workspaceId: WorkspaceId,
    event: FeedEvent,
    via: { readonly input: Exclude<IngestInput, "stream">; readonly broadcastId: string | null }
  ) {
    const requestId = yield* FiberRef.get(CurrentRequestId)
    const { matches, warnings } = yield* reach(workspaceId, event)
    const status = event.stale ? "STALE" : matches.length > 0 ? "ACCEPTED" : "NO_MATCH"
    const { bound, schedule } = event
    const hash = digestOf({
      input: via.input,
      feedId: bound.feed.id,
      eventId: event.eventId,
      occurredAt: event.occurredAt,
      origin: event.origin,
      locale: event.locale,
      data: event.data,
      publishAt: schedule.publishAt?.toISOString(),
      timezone: schedule.timezone
    })
    const id = newUlid()
    const plan = planJobs(workspaceId, id, event.origin, bound.feed.templateId, matches, schedule.publishAt)
    const landed = yield* ledger.land({
      event: {
        id,
        workspaceId,
        eventId: event.eventId,
        bodyHash: hash,
        input: via.input,
        origin: event.origin,
        streamId: null,
        feedId: bound.feed.id,
        broadcastId: via.broadcastId,
        queueId: null,
        details: `${bound.source.slug}/${bound.feed.slug}`,
        postTitle: postTitleOf(event.data),
        status,
        occurredAt: new Date(event.occurredAt),
        locale: event.locale ?? null,
        data: event.data,
        normalized: event.data,
        mappingErrors: null,
        warnings,
        publishAt: schedule.publishAt,
        timezone: schedule.timezone,
        requestId
      },
      jobs: plan.jobs
    })
    const earlier = yield* settle(landed, hash, event.eventId)
    return (earlier === undefined
      ? {
        ingestEventId: id,
        requestId,
        status: answerStatus[status],
        idempotent: false,
        matched: plan.matched,
        warnings,
        normalized: event.data
      }
      : {
        ingestEventId: earlier.id,
        requestId,
        status: "duplicate",
        idempotent: true,
        matched: [],
        warnings: earlier.warnings,
        normalized: earlier.normalized
      }) satisfies FeedSendAnswer
  })

  return { check, dryRun, land }
})

export class FeedEvents extends Context.Tag("clipwright/ingest/FeedEvents")<
  FeedEvents,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(FeedEvents, make)
}
