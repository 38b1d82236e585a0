import { Context, Effect, Either, FiberRef, Layer, Option } from "effect"
import { digestOf } from "../domain/Digest.js"
import { detailAt, StreamDisabled, UnknownStream } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { newUlid } from "../domain/Ulid.js"
import { applyFieldMap } from "../streams/FieldMapApply.js"
import type { MapNote } from "../streams/FieldMapCut.js"
import { resolveBuild } from "../templates/TemplateRegistry.js"
import { validateContent } from "../templates/Validate.js"
import type { StreamEnvelope } from "./Envelope.js"
import type { StreamDuplicateAnswer, StreamSendAnswer } from "./IngestAnswers.js"
import type { IngestStatus } from "./IngestEventRecord.js"
import { IngestLedger } from "./IngestLedger.js"
import { IngestTargets } from "./IngestTargets.js"
import { planJobs, postTitleOf, settle, wouldMatch } from "./Landings.js"

const answerStatus = { ACCEPTED: "accepted", NO_MATCH: "no_match", UNMAPPED: "unmapped" } as const

/** Sending events to a stream (SPEC "Sending events"): the dry run and the durable send. */
const make = Effect.gen(function*() {
  const targets = yield* IngestTargets
  const ledger = yield* IngestLedger

  /** The stream, the document its field map makes of the data, and what the template says of that document. */
  const examine = Effect.fnUntraced(function*(workspaceId: WorkspaceId, envelope: StreamEnvelope) {
    const found = yield* targets.stream(workspaceId, envelope.streamId)
    if (Option.isNone(found)) {
      return yield* new UnknownStream({
        message: `No stream ${envelope.streamId} on this account; GET /v1/stream lists the ones this key may address.`,
        details: [detailAt(["streamId"], "no such stream")]
      })
    }
    const { matches, stream } = found.value
    if (!stream.enabled) {
      return yield* new StreamDisabled({
        message: `Stream ${stream.id} (${stream.name}) is switched off; enable it to send events.`,
        details: [detailAt(["streamId"], "stream disabled")]
      })
    }
    // Checked against the template's newest build, as the stream's field map is.
    const build = Either.getOrThrow(resolveBuild(stream.templateId)).build
    const warnings: Array<MapNote> = []
    const document = applyFieldMap(build, stream.fieldMap, envelope.data, warnings)
    const errors = validateContent(build, document).map(({ message, path }) => ({ path, message }))
    return { stream, matches, build, document, warnings, errors }
  })

  const validate = Effect.fn("StreamSends.validate")(function*(workspaceId: WorkspaceId, envelope: StreamEnvelope) {
    const { build, document, errors, matches, stream, warnings } = yield* examine(workspaceId, envelope)
    return {
      requestId: yield* FiberRef.get(CurrentRequestId),
      streamId: stream.id,
      templateId: stream.templateId,
      templateVersion: build.version,
      valid: errors.length === 0,
      document,
      warnings,
      errors,
      wouldMatch: matches.map(wouldMatch)
    }
  })

  const send = Effect.fn("StreamSends.send")(function*(workspaceId: WorkspaceId, envelope: StreamEnvelope) {
    const requestId = yield* FiberRef.get(CurrentRequestId)
    const { document, errors, matches, stream, warnings } = yield* examine(workspaceId, envelope)
    const status: Exclude<IngestStatus, "STALE"> = errors.length > 0
      ? "UNMAPPED"
      : matches.length > 0
      ? "ACCEPTED"
      : "NO_MATCH"
    const hash = digestOf({
      input: "stream",
      streamId: envelope.streamId,
      occurredAt: envelope.occurredAt,
      locale: envelope.locale,
      data: envelope.data
    })
    const id = newUlid()
    const plan = planJobs(workspaceId, id, "custom", stream.templateId, status === "ACCEPTED" ? matches : [], null)
    const landed = yield* ledger.land({
      event: {
        id,
        workspaceId,
        eventId: envelope.eventId,
        bodyHash: hash,
        input: "stream",
        origin: "custom",
        streamId: stream.id,
        feedId: null,
        broadcastId: null,
        queueId: null,
        details: stream.name,
        postTitle: postTitleOf(document),
        status,
        occurredAt: new Date(envelope.occurredAt),
        locale: envelope.locale ?? null,
        data: envelope.data,
        normalized: document,
        mappingErrors: errors.length > 0 ? errors : null,
        warnings,
        publishAt: null,
        timezone: null,
        requestId
      },
      jobs: plan.jobs
    })
    const earlier = yield* settle(landed, hash, envelope.eventId)
    if (earlier !== undefined) {
      return {
        ingestEventId: earlier.id,
        requestId,
        status: "duplicate",
        idempotent: true,
        streamId: stream.id,
        matched: [],
        warnings: earlier.warnings,
        normalized: earlier.normalized
      } satisfies StreamDuplicateAnswer
    }
    return {
      ingestEventId: id,
      requestId,
      status: answerStatus[status],
      idempotent: false,
      streamId: stream.id,
      matched: plan.matched,
      warnings,
      normalized: document,
      ...(errors.length > 0 ? { mappingErrors: errors } : {})
    } satisfies StreamSendAnswer
  })

  return { validate, send }
})

export class StreamSends extends Context.Tag("clipwright/ingest/StreamSends")<
  StreamSends,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(StreamSends, make)
}
