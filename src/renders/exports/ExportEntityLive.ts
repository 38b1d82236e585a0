import { Entity } from "@effect/cluster"
import { Effect, Option } from "effect"
import type { WorkspaceId } from "../../domain/Principal.js"
import { StorageUsage } from "../../media/StorageUsage.js"
import { withOutageRetries } from "../../sql/OutageRetries.js"
import { BlobStorage } from "../../storage/BlobStorage.js"
import { ClipRepo } from "../clips/ClipRepo.js"
import { exportStatusOf, isTerminal } from "../RenderJob.js"
import { RenderRepo } from "../RenderRepo.js"
import { RenderRunnerEntity } from "../RenderRunnerEntity.js"
import { expireAt, ExpireExport, ExportEntity } from "./ExportEntity.js"
import { ExportRepo } from "./ExportRepo.js"

export const ExportEntityLive = ExportEntity.toLayer(
  Effect.gen(function*() {
    const exportId = (yield* Entity.CurrentAddress).entityId
    const exports = yield* ExportRepo
    const renders = yield* RenderRepo
    const storage = yield* StorageUsage
    const blobs = yield* BlobStorage
    const clips = yield* ClipRepo
    const runner = yield* RenderRunnerEntity.client
    const self = yield* ExportEntity.client

    // The entity id is the export's id: this entity owns the row, whichever workspace it is in.
    const current = exports.findAnyWorkspace(exportId).pipe(Effect.map(Option.getOrUndefined))

    const dropFile = (workspaceId: WorkspaceId, clipId: string | null, blobKey: string | null) =>
      clipId === null ? Effect.void : Effect.zipRight(
        blobKey === null ? Effect.void : blobs.delete(blobKey),
        exports.markClipGone(workspaceId, clipId)
      )

    return ExportEntity.of(withOutageRetries({
      Create: ({ payload }) =>
        Effect.gen(function*() {
          const p = payload.package
          yield* renders.insertJob(payload.workspaceId, {
            id: exportId,
            origin: "export",
            details: `Direct export of ${payload.templateName}`,
            postTitle: payload.title,
            package: p,
            templateName: payload.templateName
          })
          const output = p.options.outputs[0]!
          yield* exports.insert(payload.workspaceId, {
            id: exportId,
            renderJobId: exportId,
            templateId: p.template.id,
            templateName: payload.templateName,
            variant: p.template.variant,
            version: p.template.version,
            brandId: p.brand?.id ?? null,
            brandName: payload.brandName,
            ratio: output.ratio,
            locale: output.locale,
            data: p.content,
            title: payload.title,
            createdBy: payload.createdBy
          })
          yield* runner(exportId).Start({}, { discard: true }).pipe(Effect.orDie)
        }).pipe(Effect.withSpan("Export.create", { attributes: { exportId } })),

      RenderEnded: ({ payload }) =>
        Effect.gen(function*() {
          if (!isTerminal(payload.state)) return
          const started = yield* current
          if (started === undefined) return
          const job = yield* renders.findJob(started.workspaceId, exportId)
          yield* exports.finish(
            started.workspaceId,
            exportId,
            exportStatusOf(payload.state),
            Option.getOrNull(job)?.error ?? null
          )
          const row = yield* current
          if (row?.finishedAt) {
            yield* self(exportId).Expire(new ExpireExport({ at: expireAt(row.finishedAt) }), { discard: true }).pipe(
              Effect.orDie
            )
          }
        }).pipe(Effect.withSpan("Export.renderEnded", { attributes: { exportId } })),

      Settle: () =>
        Effect.gen(function*() {
          const row = yield* current
          if (row === undefined || row.status !== "succeeded" || row.kept || row.keptNote !== null) return
          if (row.discardedAt !== null || row.clipId === null || row.clipStored === false) return
          // Older kept clips are removed, oldest first, when this one fits the clips share but not the room left.
          // Clips a post still to be handed over needs are never removed to make room.
          const room = yield* storage.makeRoomForClip(
            row.workspaceId,
            row.clipId,
            row.byteSize ?? 0,
            clips.neededIds(row.workspaceId)
          )
            .pipe(Effect.orDie)
          if (!room.kept) {
            yield* exports.keep(
              row.workspaceId,
              exportId,
              false,
              "Larger than the whole rendered-clips share of " +
                "storage: not kept; downloadable for two hours after it finished."
            )
            return
          }
          yield* exports.keep(row.workspaceId, exportId, true, null)
        }).pipe(Effect.withSpan("Export.settle", { attributes: { exportId } })),

      Discard: () =>
        Effect.gen(function*() {
          const row = yield* current
          if (row === undefined || row.discardedAt !== null) return { discarded: false }
          if (!isTerminal(row.renderState)) {
            yield* runner(exportId).Cancel({ reason: "discarded" }).pipe(Effect.orDie)
            yield* exports.setStatus(row.workspaceId, exportId, "cancelled")
          }
          yield* exports.discard(row.workspaceId, exportId)
          yield* dropFile(row.workspaceId, row.clipId, row.blobKey)
          return { discarded: true }
        }).pipe(Effect.withSpan("Export.discard", { attributes: { exportId } })),

      Expire: () =>
        Effect.gen(function*() {
          const row = yield* current
          if (row === undefined || row.kept || row.clipStored !== true) return
          yield* dropFile(row.workspaceId, row.clipId, row.blobKey)
        }).pipe(Effect.withSpan("Export.expire", { attributes: { exportId } }))
    }))
  }),
  { maxIdleTime: "2 minutes" }
)
