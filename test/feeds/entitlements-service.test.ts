import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { WorkspaceId } from "../../src/domain/Principal.js"
import { EntitlementRepo } from "../../src/feeds/EntitlementRepo.js"
import { Entitlements } from "../../src/feeds/Entitlements.js"
import { defaultSourceSlugs, listSources } from "../../src/feeds/FeedCatalogue.js"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { describeBuild } from "../../src/templates/Describe.js"
import { resolveBuild } from "../../src/templates/TemplateRegistry.js"
import { newWorkspace, serviceTestLayer } from "../support/ServiceLayer.js"

const EntitlementsTest = Entitlements.layer.pipe(
  Layer.provideMerge(Identity.layer),
  Layer.provideMerge(Layer.mergeAll(EntitlementRepo.layer, IdentityRepo.layer)),
  Layer.provideMerge(serviceTestLayer("feeds_entitlements"))
)

layer(EntitlementsTest, { timeout: 60_000 })("Entitlements service", (it) => {
  it.effect("a new workspace is entitled to every source included by default, and not to the others", () =>
    Effect.gen(function*() {
      const entitlements = yield* Entitlements
      const ws = yield* newWorkspace("Fresh")
      assert.deepStrictEqual(yield* entitlements.sourcesOf(ws), defaultSourceSlugs())
      assert.deepStrictEqual(defaultSourceSlugs(), ["markets", "football", "news"])
    }))

  it.effect("the set replaces the whole set; only deviations are stored; one workspace's set is its own", () =>
    Effect.gen(function*() {
      const entitlements = yield* Entitlements
      const repo = yield* EntitlementRepo
      const ws = yield* newWorkspace("Granted")
      const other = yield* newWorkspace("Other")
      assert.deepStrictEqual(yield* entitlements.set(ws, ["crypto", "news"]), { sources: ["news", "crypto"] })
      const stored = (yield* repo.list(ws)).map((row) => [row.sourceSlug, row.entitled])
      assert.deepStrictEqual(stored, [["crypto", true], ["football", false], ["markets", false]])
      assert.deepStrictEqual(yield* entitlements.sourcesOf(other), defaultSourceSlugs())
      assert.deepStrictEqual(yield* entitlements.set(ws, ["football"]), { sources: ["football"] })
      assert.deepStrictEqual(yield* entitlements.set(ws, [...defaultSourceSlugs()]), { sources: defaultSourceSlugs() })
      assert.deepStrictEqual(yield* repo.list(ws), [])
    }))

  it.effect("an unknown slug is SchemaValidation at /sources/<i>, changing nothing; a missing workspace NotFound", () =>
    Effect.gen(function*() {
      const entitlements = yield* Entitlements
      const ws = yield* newWorkspace("Refused")
      yield* entitlements.set(ws, ["crypto"])
      const error = yield* Effect.flip(entitlements.set(ws, ["markets", "weather"]))
      assert.strictEqual(error._tag, "SchemaValidation")
      if (error._tag === "SchemaValidation") assert.deepStrictEqual(error.details.map((d) => d.path), ["/sources/1"])
      assert.deepStrictEqual(yield* entitlements.sourcesOf(ws), ["crypto"])
      const missing = yield* Effect.flip(entitlements.set(WorkspaceId.make("01J00000000000000000000000"), []))
      assert.strictEqual(missing._tag, "NotFound")
    }))

  it("every shipped feed is bound to a template variant with a build, and feed ids are unique fd_ ids", () => {
    const feeds = listSources().flatMap((source) => source.formats)
    assert.strictEqual(new Set(feeds.map((feed) => feed.id)).size, feeds.length)
    for (const feed of feeds) {
      assert.match(feed.id, /^fd_[0-9a-f]{12}$/)
      const resolved = resolveBuild(feed.templateId, { variant: feed.templateVariant })
      assert.strictEqual(resolved._tag, "Right", feed.id)
      if (resolved._tag === "Right") assert.ok(describeBuild(resolved.right).jsonSchema)
    }
    assert.ok(feeds.some((feed) => feed.maxAgeSeconds !== null))
    assert.ok(listSources().some((source) => !source.includedByDefault))
  })
})
