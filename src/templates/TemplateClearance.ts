import { Context, Effect, Layer, Option } from "effect"
import { detailAt, SchemaValidation, TemplateNotApproved } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { Identity } from "../identity/Identity.js"
import type { ClearedTemplates } from "./Clearance.js"
import { TemplateClearanceRepo } from "./TemplateClearanceRepo.js"
import { findTemplate, listTemplates } from "./TemplateRegistry.js"

const unknownTemplates = (templateIds: ReadonlyArray<string>) => {
  const known = listTemplates().map((t) => t.id)
  const message = (id: string) => `No template "${id}"; the templates are ${known.join(", ")}.`
  const details = templateIds.flatMap((id, i) =>
    known.includes(id) ? [] : [detailAt(["templateIds", i], message(id), "enum")]
  )
  return details.length === 0 ? undefined : new SchemaValidation({
    message: `Unknown template${details.length === 1 ? "" : "s"}: ${
      templateIds.filter((id) => !known.includes(id)).join(", ")
    }.`,
    details
  })
}

/** 409 `template_not_approved`, its detail at `path` (the field naming the template); the one wording of that refusal. */
export const notCleared = (templateId: string, path: ReadonlyArray<string | number> = ["templateId"]) => {
  const name = Option.match(findTemplate(templateId), { onNone: () => templateId, onSome: (t) => t.name })
  return new TemplateNotApproved({
    message: `Template ${name} (${templateId}) is not cleared for this workspace; the operator decides which ` +
      "templates a workspace may use.",
    details: [detailAt(path, "not cleared for the workspace", "cleared")]
  })
}

/**
 * Which templates a workspace may draw with: every template of the registry, unless the operator restricted the
 * workspace to a list (`PUT /admin/workspaces/{accountId}/templates`). Read from SQL on every check, so a change holds
 * on every node at once.
 */
const make = Effect.gen(function*() {
  const repo = yield* TemplateClearanceRepo
  const identity = yield* Identity

  /** A test of one template id against the workspace's clearance as it stands now. */
  const clearedFor = Effect.fn("TemplateClearance.clearedFor")(function*(workspaceId: WorkspaceId) {
    const restricted = yield* repo.find(workspaceId)
    return Option.match(restricted, {
      onNone: () => (_templateId: string) => true,
      onSome: (ids) => (templateId: string) => ids.includes(templateId)
    })
  })

  /** 409 `template_not_approved` with its detail at `path` (the field naming the template). */
  const requireCleared = Effect.fn("TemplateClearance.requireCleared")(function*(
    workspaceId: WorkspaceId,
    templateId: string,
    path: ReadonlyArray<string | number> = ["templateId"]
  ) {
    const cleared = yield* clearedFor(workspaceId)
    if (cleared(templateId)) return
    return yield* notCleared(templateId, path)
  })

  const view = (workspaceId: WorkspaceId) =>
    Effect.map(repo.find(workspaceId), (restricted): ClearedTemplates => ({
      templateIds: listTemplates()
        .map((t) => t.id)
        .filter((id) => Option.match(restricted, { onNone: () => true, onSome: (ids) => ids.includes(id) })),
      restricted: Option.isSome(restricted)
    }))

  /** The whole list replaces the previous one; null lifts the restriction. */
  const set = Effect.fn("TemplateClearance.set")(function*(
    accountId: WorkspaceId,
    templateIds: ReadonlyArray<string> | null
  ) {
    if (templateIds !== null) {
      const refused = unknownTemplates(templateIds)
      if (refused !== undefined) return yield* refused
    }
    yield* identity.requireWorkspace(accountId)
    if (templateIds === null) yield* repo.lift(accountId)
    else yield* repo.restrict(accountId, [...new Set(templateIds)])
    yield* Effect.logInfo("Template clearance set").pipe(Effect.annotateLogs({ accountId, templateIds }))
    return yield* view(accountId)
  })

  return { clearedFor, requireCleared, set }
})

export class TemplateClearance extends Context.Tag("clipwright/templates/TemplateClearance")<
  TemplateClearance,
  Effect.Effect.Success<typeof make>
>() {
  /** Brings its repository; needs `Identity` and SQL. */
  static readonly layer = Layer.effect(TemplateClearance, make).pipe(Layer.provide(TemplateClearanceRepo.layer))
}
