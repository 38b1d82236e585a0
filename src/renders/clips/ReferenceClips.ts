import { Context, Deferred, Effect, Either, Exit, FiberId, Layer, Option } from "effect"
import { createHash } from "node:crypto"
import {
  detailAt,
  type LocaleNotSupported,
  RatioNotSupported,
  type RenderFailed,
  SchemaValidation,
  type UpstreamUnavailable
} from "../../domain/Errors.js"
import { Renderer } from "../../drawing/Renderer.js"
import { hashBlob } from "../../storage/BlobHash.js"
import { BlobStorage } from "../../storage/BlobStorage.js"
import { describeBuild } from "../../templates/Describe.js"
import { buildSha, canonicalJson } from "../../templates/Descriptor.js"
import type { Content, ResolvedBuild } from "../../templates/format/Template.js"
import { type BuildSelector, isExactVersion, resolveBuild } from "../../templates/TemplateRegistry.js"
import { invalidVersion, unresolved } from "../../templates/Templates.js"
import { RenderCapacity } from "../allowance/RenderCapacity.js"
import { noSlotsHere, renderRefusal } from "../RenderRefusals.js"
import { sceneFor } from "../Scenes.js"

/** Reference clips show the worked example in the default language. */
const REFERENCE_LOCALE = "en"
const SHAPE = /^\d+x\d+$/

export interface ReferenceClip {
  readonly key: string
  readonly sha256: string
  readonly byteSize: number
  readonly version: string
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex")

/**
 * The blob a build's reference clip lives under. The build's sha comes first, so a changed build (or a changed
 * worked example) is a new key and draws again; nothing else ever invalidates it.
 */
const keyOf = (resolved: ResolvedBuild, ratio: string) => {
  const example = canonicalJson(describeBuild(resolved).example)
  return `reference/${resolved.template.id}/${buildSha(resolved.build)}/${ratio}-${sha(example).slice(0, 16)}.mp4`
}

type Stored = Omit<ReferenceClip, "version">
type Refusal = LocaleNotSupported | RenderFailed | UpstreamUnavailable

/**
 * Reference clips (`GET /v1/templates/{id}/reference/{ratio}`): drawn once per build and ratio in this node's render
 * slots and kept in the blob store. Concurrent first requests for one clip share one render; the render runs on its
 * own fiber, so a client hanging up does not waste it for the others.
 */
const make = Effect.gen(function*() {
  const blobs = yield* BlobStorage
  const capacity = yield* RenderCapacity
  const renderer = yield* Renderer
  const scope = yield* Effect.scope
  const known = new Map<string, Stored>()
  const pending = new Map<string, Deferred.Deferred<Stored, Refusal>>()

  /** Already in the store (drawn earlier, maybe by another node sharing the store): hash it once. */
  const fromStore = (key: string) =>
    Effect.flatMap(
      blobs.stat(key),
      Option.match({
        onNone: () => Effect.succeed(Option.none<Stored>()),
        onSome: () =>
          hashBlob(blobs, key).pipe(
            Effect.map((h) => Option.some({ key, ...h })),
            Effect.catchTag("BlobNotFound", () => Effect.succeedNone)
          )
      })
    )

  const draw = (resolved: ResolvedBuild, ratio: string, key: string) =>
    Effect.scoped(Effect.gen(function*() {
      const content = describeBuild(resolved).example as Content
      const scene = sceneFor(resolved.build, content, ratio, REFERENCE_LOCALE)
      const temp = yield* blobs.tempPath(".mp4")
      yield* capacity.withSlot(renderer.clip(scene, { outputPath: temp })).pipe(Effect.catchAll(renderRefusal))
      const stored = yield* blobs.putFile(key, temp)
      yield* Effect.logInfo("Reference clip drawn").pipe(Effect.annotateLogs({ key, byteSize: stored.byteSize }))
      return { key, sha256: stored.sha256, byteSize: stored.byteSize }
    })).pipe(Effect.withSpan("ReferenceClips.draw", { attributes: { key } }))

  const produce = (resolved: ResolvedBuild, ratio: string, key: string) =>
    Effect.flatMap(fromStore(key), (found): Effect.Effect<Stored, Refusal> => {
      if (Option.isSome(found)) return Effect.succeed(found.value)
      return capacity.nodeSlots === 0 ? Effect.fail(noSlotsHere) : draw(resolved, ratio, key)
    })

  /** The first caller for a key starts the work; everyone (the first included) awaits its one outcome. */
  const ensure = (resolved: ResolvedBuild, ratio: string, key: string): Effect.Effect<Stored, Refusal> =>
    Effect.suspend(() => {
      const done = known.get(key)
      if (done !== undefined) {
        // A clip removed from the store behind our back is drawn again rather than answered as missing.
        return Effect.flatMap(blobs.stat(key), (stat) => {
          if (Option.isSome(stat)) return Effect.succeed(done)
          known.delete(key)
          return ensure(resolved, ratio, key)
        })
      }
      let deferred = pending.get(key)
      if (deferred === undefined) {
        const fresh = Deferred.unsafeMake<Stored, Refusal>(FiberId.none)
        deferred = fresh
        pending.set(key, fresh)
        const work = produce(resolved, ratio, key).pipe(
          Effect.onExit((exit) =>
            Effect.sync(() => {
              pending.delete(key)
              if (Exit.isSuccess(exit)) known.set(key, exit.value)
            }).pipe(Effect.zipRight(Deferred.done(fresh, exit)))
          )
        )
        return Effect.forkIn(work, scope).pipe(Effect.zipRight(Deferred.await(fresh)))
      }
      return Deferred.await(deferred)
    })

  const clip = Effect.fn("ReferenceClips.clip")(function*(templateId: string, ratio: string, query: BuildSelector) {
    if (!SHAPE.test(ratio)) {
      return yield* new SchemaValidation({
        message: "No such shape",
        details: [detailAt(["ratio"], "a shape is NxM, such as 9x16", "pattern")]
      })
    }
    if (query.version !== undefined && query.version !== "latest" && !isExactVersion(query.version)) {
      return yield* invalidVersion(query.version)
    }
    const found = resolveBuild(templateId, query)
    if (Either.isLeft(found)) return yield* unresolved(found.left)
    const resolved = found.right
    if (!(resolved.build.ratios as ReadonlyArray<string>).includes(ratio)) {
      return yield* new RatioNotSupported({
        message: `${resolved.template.name} ${resolved.variant.name} ${resolved.build.version} does not come in ` +
          `${ratio}; it draws ${resolved.build.ratios.join(", ")}.`
      })
    }
    const stored = yield* ensure(resolved, ratio, keyOf(resolved, ratio))
    return { ...stored, version: resolved.build.version } satisfies ReferenceClip
  })

  return { clip }
})

export class ReferenceClips extends Context.Tag("clipwright/renders/clips/ReferenceClips")<
  ReferenceClips,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.scoped(ReferenceClips, make)
}
