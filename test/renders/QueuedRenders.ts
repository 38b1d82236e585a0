import { Deferred, Effect, Layer, Queue } from "effect"
import type { AppSettings } from "../../src/Config.js"
import type { WorkspaceId } from "../../src/domain/Principal.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { RenderCapacity } from "../../src/renders/allowance/RenderCapacity.js"
import type { RenderPackage } from "../../src/renders/RenderJob.js"
import { RenderRepo } from "../../src/renders/RenderRepo.js"
import { serviceTestLayer } from "../support/ServiceLayer.js"

/** One node's render slots (two, as the test settings give) over a fresh database: the real claim in PostgreSQL. */
export const renderSlotsLayer = (label: string, settings: Partial<AppSettings> = {}) =>
  Layer.mergeAll(RenderCapacity.layer, Identity.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(RenderRepo.layer, IdentityRepo.layer)),
    Layer.provideMerge(serviceTestLayer(label, settings))
  )

const renderPackage = (headline: string): RenderPackage => ({
  template: { id: "tpl_3a7c91e04b5d", name: "Market move", variant: "compact", version: "1.0.1" },
  content: { clipData: { headline } },
  brand: null,
  channel: null,
  options: { outputs: [{ ratio: "9x16", locale: "en" }], priority: false }
})

/** A render job waiting in the queue (`export` or a pipeline origin), as a workspace's request leaves it. */
export const queuedRender = (workspaceId: WorkspaceId, origin: string, headline = "Queued") =>
  Effect.gen(function*() {
    const id = newUlid()
    yield* (yield* RenderRepo).insertJob(workspaceId, {
      id,
      origin,
      details: origin,
      postTitle: null,
      package: renderPackage(headline),
      templateName: "Market move"
    })
    return id
  })

/**
 * Runners as the render entity runs them, held by the test: each waits for its turn, says when it is handed a slot
 * (`next` answers the renders in the order they got one) and draws until the test lets it `finish`.
 */
export const heldRunners = Effect.gen(function*() {
  const capacity = yield* RenderCapacity
  const repo = yield* RenderRepo
  const grants = yield* Queue.unbounded<string>()
  const runs = new Map<string, { readonly workspaceId: WorkspaceId; readonly done: Deferred.Deferred<void> }>()
  const runner = (workspaceId: WorkspaceId, id: string) =>
    Effect.gen(function*() {
      const done = yield* Deferred.make<void>()
      runs.set(id, { workspaceId, done })
      return yield* Effect.fork(capacity.drawInTurn(
        workspaceId,
        id,
        Effect.zipRight(Queue.offer(grants, id), Deferred.await(done)),
        undefined
      ))
    })
  // As a runner ends: the render's row first, then its slot.
  const finish = (id: string) => {
    const run = runs.get(id)!
    return Effect.zipRight(
      repo.finishIfOpen(run.workspaceId, id, "COMPLETED", null),
      Deferred.succeed(run.done, undefined)
    )
  }
  // Nothing announces that a runner has started waiting: look until all have.
  const lined = (n: number) =>
    Effect.gen(function*() {
      while ((yield* capacity.waitingHere) < n) yield* Effect.sleep("20 millis")
    })
  return { runner, finish, lined, next: Queue.take(grants) }
})
