import { Clock, Context, Effect, Layer } from "effect"
import type { WorkspaceId } from "../domain/Principal.js"
import { descriptorSha } from "./Descriptor.js"
import { listTemplates } from "./TemplateRegistry.js"
import type { TemplateSyncRecord } from "./TemplateSyncRecord.js"
import { type Replacement, TemplateSyncRepo } from "./TemplateSyncRepo.js"
import type { TemplateWorkspaceView } from "./Views.js"

export interface SyncAnswer {
  readonly syncedAt: string
  readonly added: ReadonlyArray<string>
  readonly changed: ReadonlyArray<string>
  readonly withdrawn: ReadonlyArray<string>
  readonly unchanged: ReadonlyArray<string>
}

type Mirrored = Pick<TemplateSyncRecord, "templateId" | "descriptorSha" | "offered">

const registryState = (): ReadonlyArray<Mirrored> =>
  listTemplates().map((t) => ({ templateId: t.id, descriptorSha: descriptorSha(t), offered: t.offered }))

/** What changed between the mirror a workspace holds and the registry now (ids in registry order). */
export const diff = (previous: ReadonlyArray<Mirrored>, current: ReadonlyArray<Mirrored>) => {
  const before = new Map(previous.map((p) => [p.templateId, p]))
  const now = new Set(current.map((c) => c.templateId))
  const added: Array<string> = []
  const changed: Array<string> = []
  const unchanged: Array<string> = []
  for (const c of current) {
    const p = before.get(c.templateId)
    if (p === undefined) added.push(c.templateId)
    else if (p.descriptorSha !== c.descriptorSha || p.offered !== c.offered) changed.push(c.templateId)
    else unchanged.push(c.templateId)
  }
  const withdrawn = previous.filter((p) => !now.has(p.templateId)).map((p) => p.templateId)
  return { added, changed, withdrawn, unchanged }
}

/**
 * `POST /v1/templates/sync`: mirrors the template registry into one workspace. A workspace that never synced sees
 * the registry as released, so its first sync compares against that.
 */
const make = Effect.gen(function*() {
  const repo = yield* TemplateSyncRepo

  const sync = Effect.fn("TemplateSync.sync")(function*(workspaceId: WorkspaceId) {
    const syncedAt = new Date(yield* Clock.currentTimeMillis)
    const current = registryState()
    return yield* repo.replace(workspaceId, (stored): Replacement<SyncAnswer> => ({
      rows: current.map((c) => ({ workspaceId, ...c, syncedAt })),
      answer: { syncedAt: syncedAt.toISOString(), ...diff(stored.length === 0 ? current : stored, current) }
    }))
  })

  /** The workspace views with `offered`, `descriptorSha` and `syncedAt` of each template the workspace mirrored. */
  const overlay = Effect.fn("TemplateSync.overlay")(
    function*(workspaceId: WorkspaceId, views: ReadonlyArray<TemplateWorkspaceView>) {
      const mirrored = new Map((yield* repo.list(workspaceId)).map((row) => [row.templateId, row]))
      return views.map((view) => {
        const row = mirrored.get(view.templateId)
        return row === undefined
          ? view
          : { ...view, offered: row.offered, descriptorSha: row.descriptorSha, syncedAt: row.syncedAt.toISOString() }
      })
    }
  )

  return { sync, overlay }
})

export class TemplateSync extends Context.Tag("clipwright/templates/TemplateSync")<
  TemplateSync,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(TemplateSync, make).pipe(Layer.provideMerge(TemplateSyncRepo.layer))
}
