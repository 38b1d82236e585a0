import { Context, Effect, Either, FiberRef, Layer, Option } from "effect"
import { AppConfig } from "../Config.js"
import { entityCall } from "../domain/EntityCalls.js"
import { detailAt, type ErrorDetail, NoSample, NotFound, SchemaValidation, UnknownTemplate } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { streamIdForRequest } from "../domain/Ulid.js"
import type { Build } from "../templates/format/Template.js"
import { TemplateClearance } from "../templates/TemplateClearance.js"
import { resolveBuild } from "../templates/TemplateRegistry.js"
import { validateContent } from "../templates/Validate.js"
import { applyFieldMap } from "./FieldMapApply.js"
import { checkFieldMap } from "./FieldMapCheck.js"
import type { CreateStreamBody, FieldMap, Stream, UpdateStreamBody } from "./Stream.js"
import { StreamEntity } from "./StreamEntity.js"
import { type StreamListener, StreamListeners } from "./StreamListeners.js"
import type { StreamRecord } from "./StreamRecord.js"
import { StreamRepo } from "./StreamRepo.js"
import { suggestMap, templateFields } from "./SuggestMap.js"

export const toStream = (row: StreamRecord, listeners: ReadonlyArray<StreamListener>): Stream => ({
  id: row.id,
  name: row.name,
  description: row.description,
  enabled: row.enabled,
  templateId: row.templateId,
  fieldMap: row.fieldMap,
  subscribers: listeners.length,
  listeners,
  lastReceivedAt: row.lastReceivedAt?.toISOString() ?? null,
  ...(row.lastSample === null ? {} : { lastSample: row.lastSample }),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

/** The template's newest build (of its first variant): what stream configuration is checked against. */
const newestBuildOf = (templateId: string, path: string) =>
  Either.match(resolveBuild(templateId), {
    onLeft: () =>
      Effect.fail(
        new UnknownTemplate({
          message: `Template ${templateId} is not offered.`,
          details: [detailAt([path], "unknown template")]
        })
      ),
    onRight: (resolved) => Effect.succeed(resolved.build)
  })

const invalid = (message: string, details: ReadonlyArray<ErrorDetail>) =>
  details.length === 0 ? Effect.void : Effect.fail(new SchemaValidation({ message, details }))

/** A changed map or template must still turn the stream's last payload into content the template accepts. */
const checkAgainstSample = (build: Build, fieldMap: FieldMap, sample: unknown) => {
  if (sample === null || sample === undefined) return Effect.void
  const problems = validateContent(build, applyFieldMap(build, fieldMap, sample))
  return invalid(
    "With this map the stream's last payload would not fit the template.",
    problems.map((p) => detailAt(["fieldMap"], `Last payload, ${p.path || "document"}: ${p.message}`, p.rule))
  )
}

const make = Effect.gen(function*() {
  const clearance = yield* TemplateClearance
  const repo = yield* StreamRepo
  const config = yield* AppConfig
  const entity = yield* StreamEntity.client
  const channels = yield* StreamListeners
  const requestId = FiberRef.get(CurrentRequestId)

  const requireStream = (workspaceId: WorkspaceId, id: string) =>
    Effect.flatMap(
      repo.findLive(workspaceId, id),
      Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `No stream ${id}.` })),
        onSome: Effect.succeed
      })
    )

  const list = Effect.fn("Streams.list")(function*(workspaceId: WorkspaceId) {
    const rows = yield* repo.listLive(workspaceId)
    const listening = yield* channels.listening(workspaceId)
    return {
      route: `${config.publicBaseUrl}/v1/stream`,
      streams: rows.map((row) => toStream(row, listening.get(row.id) ?? []))
    }
  })

  /** What a sending key may address: every live stream of the workspace, in the list's order. */
  const addressable = Effect.fn("Streams.addressable")(function*(workspaceId: WorkspaceId) {
    const rows = yield* repo.listLive(workspaceId)
    return {
      route: `${config.publicBaseUrl}/v1/stream`,
      streams: rows.map((row) => ({
        streamId: row.id,
        name: row.name,
        templateId: row.templateId,
        enabled: row.enabled
      }))
    }
  })

  const create = Effect.fn("Streams.create")(function*(workspaceId: WorkspaceId, body: CreateStreamBody) {
    const build = yield* newestBuildOf(body.templateId, "templateId")
    yield* clearance.requireCleared(workspaceId, body.templateId)
    const fieldMap = body.fieldMap ?? {}
    yield* invalid("The field map does not fit the template.", checkFieldMap(build, fieldMap))
    const currentRequest = yield* requestId
    const id = body.id ?? streamIdForRequest(currentRequest, workspaceId)
    yield* entityCall(
      entity(id).Create({
        requestId: currentRequest,
        workspaceId,
        name: body.name,
        description: body.description ?? "",
        enabled: body.enabled ?? true,
        templateId: body.templateId,
        fieldMap
      })
    )
    // A new stream has no listeners yet.
    return toStream(yield* requireStream(workspaceId, id), [])
  })

  const update = Effect.fn("Streams.update")(function*(workspaceId: WorkspaceId, id: string, body: UpdateStreamBody) {
    let newTemplate = false
    if (body.templateId !== undefined || body.fieldMap !== undefined) {
      const current = yield* requireStream(workspaceId, id)
      newTemplate = body.templateId !== undefined && body.templateId !== current.templateId
      if (newTemplate) yield* clearance.requireCleared(workspaceId, body.templateId!)
      const build = yield* newestBuildOf(body.templateId ?? current.templateId, "templateId")
      const fieldMap = body.fieldMap ?? current.fieldMap
      yield* invalid("The field map does not fit the template.", checkFieldMap(build, fieldMap))
      yield* checkAgainstSample(build, fieldMap, current.lastSample)
    }
    yield* entityCall(entity(id).Update({ requestId: yield* requestId, workspaceId, ...body }))
    if (newTemplate && body.templateId !== undefined) yield* channels.templateChanged(workspaceId, id, body.templateId)
    return { ok: true as const }
  })

  const remove = Effect.fn("Streams.delete")(function*(workspaceId: WorkspaceId, id: string) {
    // The channels listening when it goes: they stop, as no event can reach the stream any more.
    const stopped = (yield* channels.listening(workspaceId)).get(id)?.length ?? 0
    yield* entityCall(entity(id).Delete({ requestId: yield* requestId, workspaceId }))
    return { ok: true as const, stopped }
  })

  const suggest = Effect.fn("Streams.suggestMap")(
    function*(
      workspaceId: WorkspaceId,
      id: string,
      body: { templateId?: string | undefined; templateVersion?: string | undefined }
    ) {
      const stream = yield* requireStream(workspaceId, id)
      const templateId = body.templateId ?? stream.templateId
      const resolved = resolveBuild(templateId, { version: body.templateVersion })
      if (Either.isLeft(resolved)) {
        return yield* resolved.left._tag === "InvalidVersion"
          ? new SchemaValidation({
            message: "templateVersion must be major.minor.patch or latest.",
            details: [detailAt(["templateVersion"], "not a version", "pattern")]
          })
          : new UnknownTemplate({ message: `Template ${templateId} has no such build.` })
      }
      if (stream.lastSample === null) {
        return yield* new NoSample({ message: `Stream ${id} has not received a payload yet; send one event first.` })
      }
      const build = resolved.right.build
      return {
        suggestion: suggestMap(build, stream.lastSample),
        templateFields: templateFields(build),
        sample: stream.lastSample
      }
    }
  )

  /** The template of the workspace's live stream; None for a missing stream or another workspace's. */
  const templateOf = Effect.fn("Streams.templateOf")(function*(workspaceId: WorkspaceId, id: string) {
    return Option.map(yield* repo.findLive(workspaceId, id), (row) => row.templateId)
  })

  /** The workspace's live stream an event is sent to; None for a missing stream or another workspace's. */
  const sendTarget = (workspaceId: WorkspaceId, id: string) => repo.findTarget(workspaceId, id)

  return { list, addressable, create, update, remove, suggest, templateOf, sendTarget }
})

export class Streams extends Context.Tag("clipwright/streams/Streams")<Streams, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Streams, make)
}
