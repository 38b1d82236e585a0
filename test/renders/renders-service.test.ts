import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as fs from "node:fs"
import type { WorkspaceId } from "../../src/domain/Principal.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { StorageRepo } from "../../src/media/StorageRepo.js"
import { StorageUsage } from "../../src/media/StorageUsage.js"
import { ClipRepo } from "../../src/renders/clips/ClipRepo.js"
import { RenderedClips } from "../../src/renders/clips/RenderedClips.js"
import { ExportEntityLive } from "../../src/renders/exports/ExportEntityLive.js"
import { ExportFiles } from "../../src/renders/exports/ExportFiles.js"
import { ExportRepo } from "../../src/renders/exports/ExportRepo.js"
import { ExportViews } from "../../src/renders/exports/ExportViews.js"
import type { RenderPackage } from "../../src/renders/RenderJob.js"
import { RenderRepo } from "../../src/renders/RenderRepo.js"
import { RenderJobs } from "../../src/renders/runner/RenderJobs.js"
import { RenderJobsQuery } from "../../src/renders/runner/RenderJobsQuery.js"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { serviceTestLayer } from "../support/ServiceLayer.js"

const RendersTest = Layer.mergeAll(RenderJobs.layer, ExportFiles.layer, RenderedClips.layer, ExportEntityLive).pipe(
  Layer.provideMerge(Layer.mergeAll(ExportViews.layer, Identity.layer, StorageUsage.layer)),
  Layer.provideMerge(Layer.mergeAll(
    RenderRepo.layer,
    ExportRepo.layer,
    RenderJobsQuery.layer,
    ClipRepo.layer,
    IdentityRepo.layer,
    StorageRepo.layer,
    LocalBlobStorage.layer
  )),
  Layer.provideMerge(serviceTestLayer("renders_service"))
)

const renderPackage: RenderPackage = {
  template: { id: "market-move", name: "Market move", variant: "standard", version: "1.0.0" },
  content: { headline: "Markets" },
  brand: null,
  channel: null,
  options: { outputs: [{ ratio: "9x16", locale: "en" }], priority: false }
}

/** A queued direct export of the workspace, as the export entity's Create writes it (no render drawn). */
const queuedExport = (workspaceId: WorkspaceId) =>
  Effect.gen(function*() {
    const id = newUlid()
    const templateName = renderPackage.template.name
    yield* (yield* RenderRepo).insertJob(workspaceId, {
      id,
      origin: "export",
      details: `Direct export of ${templateName}`,
      postTitle: null,
      package: renderPackage,
      templateName
    })
    yield* (yield* ExportRepo).insert(workspaceId, {
      id,
      renderJobId: id,
      templateId: renderPackage.template.id,
      templateName,
      variant: renderPackage.template.variant,
      version: renderPackage.template.version,
      brandId: null,
      brandName: null,
      ratio: "9x16",
      locale: "en",
      data: renderPackage.content,
      title: null,
      createdBy: "apikey:test"
    })
    return id
  })

/** A finished output's clip, its file in the blob store, kept with the workspace's rendered clips. */
const keptClip = (workspaceId: WorkspaceId, renderJobId: string) =>
  Effect.gen(function*() {
    const clipId = newUlid()
    const renders = yield* RenderRepo
    const blobs = yield* BlobStorage
    const temp = yield* blobs.tempPath(".mp4")
    fs.writeFileSync(temp, Buffer.alloc(12_345, 7))
    const stored = yield* blobs.putFile(`clips/${workspaceId}/${clipId}.mp4`, temp)
    yield* renders.insertClip(workspaceId, {
      id: clipId,
      renderJobId,
      ratio: "9x16",
      locale: "en",
      width: 1080,
      height: 1920,
      durationMs: 4000,
      byteSize: stored.byteSize,
      sha256: stored.sha256,
      blobKey: stored.key
    })
    yield* renders.setOutput(workspaceId, renderJobId, "9x16", "en", { state: "succeeded", progress: 1, clipId })
    const room = yield* (yield* StorageUsage).makeRoomForClip(workspaceId, clipId, 12_345)
    assert.isTrue(room.kept)
    return { clipId, blobKey: stored.key, sha256: stored.sha256 }
  }).pipe(Effect.scoped)

const twoWorkspaces = Effect.gen(function*() {
  const identity = yield* Identity
  const a = (yield* identity.createWorkspace("Acme", null)).accountId
  const b = (yield* identity.createWorkspace("Beta", null)).accountId
  return { a, b }
})

/** The message of a 404 with the id taken out: another workspace's id must read exactly like a missing one. */
const shape = (error: { readonly _tag: string; readonly message: string }, id: string) =>
  `${error._tag}: ${error.message.replaceAll(id, "<id>")}`

// The live clock: a discard goes through the export entity, whose polling the TestClock would hold still.
describe("renders: jobs, exports and clips of a workspace", () => {
  layer(RendersTest, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("another workspace's render job answers like a missing one; the log shows only the caller's", () =>
      Effect.gen(function*() {
        const jobs = yield* RenderJobs
        const { a, b } = yield* twoWorkspaces
        const mine = yield* queuedExport(a)
        const theirs = yield* queuedExport(b)

        const handed = yield* jobs.renderPackage(a, mine)
        assert.strictEqual(handed.package.jobId, mine)
        assert.deepStrictEqual(handed.package.template, renderPackage.template)

        const other = yield* Effect.flip(jobs.renderPackage(b, mine))
        const missing = yield* Effect.flip(jobs.renderPackage(b, "01NOSUCHJOB"))
        assert.strictEqual(shape(other, mine), shape(missing, "01NOSUCHJOB"))
        assert.strictEqual(other._tag, "NotFound")

        const log = yield* jobs.list(b, { page: 1, perPage: 20 })
        assert.deepStrictEqual(log.jobs.map((job) => job.id), [theirs])
        assert.strictEqual(log.all, 1)
        assert.strictEqual(log.facets.state["PENDING"], 1)
        assert.strictEqual(log.facets.state["COMPLETED"], 0)
        assert.deepStrictEqual(log.jobs[0]!.outputs, [{ ratio: "9x16", locale: "en", state: "pending", error: null }])
      }))

    it.effect("another workspace's export is not found by poll, reuse or discard; one queue spans all workspaces", () =>
      Effect.gen(function*() {
        const views = yield* ExportViews
        const files = yield* ExportFiles
        const { a, b } = yield* twoWorkspaces
        const earlier = yield* queuedExport(b)
        const later = yield* queuedExport(a)

        const polled = yield* views.poll(a, later)
        assert.strictEqual(polled.status, "queued")
        assert.strictEqual(polled.renderer, "PENDING")
        // Workspace b's render was submitted first: it is ahead of a's in the one queue every workspace shares.
        assert.strictEqual(polled.ahead, (yield* views.poll(b, earlier)).ahead + 1)

        const missing = shape(yield* Effect.flip(views.poll(b, "01NOSUCHEXPORT")), "01NOSUCHEXPORT")
        assert.strictEqual(shape(yield* Effect.flip(views.poll(b, later)), later), missing)
        assert.strictEqual(shape(yield* Effect.flip(files.reuse(b, later)), later), missing)
        assert.strictEqual(shape(yield* Effect.flip(views.discard(b, later, newUlid())), later), missing)
        assert.strictEqual(shape(yield* Effect.flip(files.download(b, later)), later), missing)

        const queue = yield* views.queue(b, new Date())
        assert.deepStrictEqual(queue.exports.map((entry) => entry.jobId), [earlier])
        assert.strictEqual((yield* files.reuse(a, later)).reuse.templateId, renderPackage.template.id)
      }))

    it.effect("another workspace's rendered clip is not found or removed; its signed URL serves it to anyone", () =>
      Effect.gen(function*() {
        const clips = yield* RenderedClips
        const { a, b } = yield* twoWorkspaces
        const { blobKey, clipId, sha256 } = yield* keptClip(a, yield* queuedExport(a))

        const listed = yield* clips.list(a)
        assert.deepStrictEqual(listed.clips.map((clip) => [clip.id, clip.byteSize]), [[clipId, 12_345]])
        assert.deepStrictEqual((yield* clips.list(b)).clips, [])

        const missing = shape(yield* Effect.flip(clips.metadata(b, "01NOSUCHCLIP")), "01NOSUCHCLIP")
        assert.strictEqual(shape(yield* Effect.flip(clips.metadata(b, clipId)), clipId), missing)
        assert.strictEqual(shape(yield* Effect.flip(clips.remove(b, clipId)), clipId), missing)
        assert.strictEqual((yield* clips.list(a)).clips.length, 1)

        const { url } = yield* clips.metadata(a, clipId)
        const signed = new URL(url).searchParams
        const file = yield* clips.signedFile(clipId, signed.get("exp") ?? undefined, signed.get("sig") ?? undefined)
        assert.deepStrictEqual(file, { blobKey, sha256 })
        const refused = yield* Effect.flip(clips.signedFile(clipId, signed.get("exp") ?? undefined, "forged"))
        assert.strictEqual(refused._tag, "Forbidden")
      }))

    it.effect("a discard is applied once per request id; then the export and its video are gone", () =>
      Effect.gen(function*() {
        const views = yield* ExportViews
        const clips = yield* RenderedClips
        const exports = yield* ExportRepo
        const { a, b } = yield* twoWorkspaces
        const id = yield* queuedExport(a)
        const { blobKey } = yield* keptClip(a, id)
        yield* (yield* RenderRepo).finishIfOpen(a, id, "COMPLETED", null)
        yield* exports.finish(a, id, "succeeded", null)
        yield* exports.keep(a, id, true, null)
        assert.strictEqual((yield* views.poll(a, id)).status, "succeeded")
        assert.strictEqual((yield* Effect.flip(views.discard(b, id, newUlid())))._tag, "NotFound")

        const requestId = newUlid()
        assert.deepStrictEqual(yield* views.discard(a, id, requestId), { discarded: true })
        assert.deepStrictEqual(yield* views.discard(a, id, requestId), { discarded: true })
        assert.deepStrictEqual(yield* views.discard(a, id, newUlid()), { discarded: false })

        assert.strictEqual((yield* Effect.flip(views.poll(a, id)))._tag, "NotFound")
        assert.deepStrictEqual((yield* views.queue(a, new Date())).exports, [])
        assert.deepStrictEqual((yield* clips.list(a)).clips, [])
        assert.isTrue(Option.isNone(yield* (yield* BlobStorage).stat(blobKey)))
      }))
  })
})
