import { Context, Effect, Layer } from "effect"
import { detailAt, SchemaValidation } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { Identity } from "../identity/Identity.js"
import { EntitlementRepo } from "./EntitlementRepo.js"
import { listSources, sourceSlugs } from "./FeedCatalogue.js"

const unknownSources = (sources: ReadonlyArray<string>) => {
  const known = new Set(sourceSlugs())
  const message = (slug: string) => `No shipped source "${slug}"; the sources are ${[...known].join(", ")}.`
  const details = sources.flatMap((slug, i) => known.has(slug) ? [] : [detailAt(["sources", i], message(slug), "enum")])
  return details.length === 0 ? undefined : new SchemaValidation({
    message: `Unknown source${details.length === 1 ? "" : "s"}: ${sources.filter((s) => !known.has(s)).join(", ")}.`,
    details
  })
}

/**
 * Which shipped sources a workspace may switch on: every source included by default, unless the operator withdrew
 * it, plus the ones the operator granted. Answers in catalogue order.
 */
const make = Effect.gen(function*() {
  const repo = yield* EntitlementRepo
  const identity = yield* Identity

  const sourcesOf = Effect.fn("Entitlements.sourcesOf")(function*(workspaceId: WorkspaceId) {
    const said = new Map((yield* repo.list(workspaceId)).map((row) => [row.sourceSlug, row.entitled]))
    return listSources()
      .filter((source) => said.get(source.slug) ?? source.includedByDefault)
      .map((source) => source.slug)
  })

  /** The body names the whole set; only where it differs from the defaults is it stored. */
  const set = Effect.fn("Entitlements.set")(function*(accountId: WorkspaceId, sources: ReadonlyArray<string>) {
    const refused = unknownSources(sources)
    if (refused !== undefined) return yield* refused
    yield* identity.requireWorkspace(accountId)
    const wanted = new Set(sources)
    const deviations = listSources()
      .filter((source) => wanted.has(source.slug) !== source.includedByDefault)
      .map((source) => ({ sourceSlug: source.slug, entitled: wanted.has(source.slug) }))
    yield* repo.replace(accountId, deviations)
    yield* Effect.logInfo("Feed entitlements set").pipe(Effect.annotateLogs({ accountId, sources: [...wanted] }))
    return { sources: yield* sourcesOf(accountId) }
  })

  return { sourcesOf, set }
})

export class Entitlements extends Context.Tag("clipwright/feeds/Entitlements")<
  Entitlements,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Entitlements, make)
}
