import { Context, Effect, Layer } from "effect"
import { detailAt, RenderTimeout, SchemaValidation } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import type { KeyframesBody } from "./KeyframesBody.js"
import { Renderer } from "../../render/Renderer.js"
import { BlobStorage } from "../../storage/BlobStorage.js"
import { buildZip } from "../../storage/Zip.js"
import { safeName } from "../../storage/ZipNames.js"
import type { Content } from "../../templates/Template.js"
import { BrandLooks } from "../../brands/BrandLooks.js"
import { checkExport, resolveExportBuild } from "./ExportChecks.js"
import { RenderCapacity } from "../allowance/RenderCapacity.js"
import { noSlotsHere, renderRefusal } from "../jobs/RenderRefusals.js"
import { sceneFor, sizeOf } from "../jobs/Scenes.js"
import { describeLimit, renderTimeLimit } from "../jobs/RenderTimeLimit.js"
import { TemplateClearance } from "../../templates/TemplateClearance.js"

const DEFAULT_LOCALE = "en"

/** `<name>.png`; a name already ending in .png is not given a second one. */
const pngName = (name: string) => `${name.replace(/\.png$/i, "")}.png`

/**
 * Stills of a build for this content (`POST /v1/direct-export/keyframes`): every start refusal except the
 * allowance, which keyframes never touch. Each distinct frame is drawn once, in this node's render slots.
 */
const make = Effect.gen(function*() {
  const capacity = yield* RenderCapacity
  const blobs = yield* BlobStorage
  const looks = yield* BrandLooks
  const renderer = yield* Renderer
  const clearance = yield* TemplateClearance
  const timeLimit = yield* renderTimeLimit

  const draw = Effect.fn("Keyframes.draw")(function*(workspaceId: WorkspaceId, body: KeyframesBody) {
    const resolved = yield* resolveExportBuild(body, true)
    const locale = body.locale ?? DEFAULT_LOCALE
    const { brand } = yield* checkExport(resolved, body, [{ ratio: body.ratio, locale }], workspaceId).pipe(
      Effect.provideService(BrandLooks, looks),
      Effect.provideService(TemplateClearance, clearance)
    )
    const total = resolved.build.duration.frames
    const late = body.frames.flatMap((keyframe, i) => keyframe.frame >= total ? [i] : [])
    if (late.length > 0) {
      return yield* new SchemaValidation({
        message: `The clip has ${total} frames (0 to ${total - 1}); ${late.length} keyframe(s) lie past its end.`,
        details: late.map((i) => detailAt(["frames", i, "frame"], `must be less than ${total}`, "maximum"))
      })
    }
    if (capacity.nodeSlots === 0) return yield* noSlotsHere
    const size = sizeOf(body.ratio)
    const output = { ...size, ratio: body.ratio, locale }
    const extras = yield* looks.extrasFor(workspaceId, brand?.id ?? null, body.data, output)
    const scene = sceneFor(resolved.build, body.data as Content, body.ratio, locale, extras)
    const distinct = [...new Set(body.frames.map((keyframe) => keyframe.frame))]
    const limit = timeLimit(total, resolved.build.fps)
    const tooLong = new RenderTimeout({
      message: `Drawing a keyframe took longer than the time limit of ${describeLimit(limit)}; ask again.`
    })
    const drawn = yield* Effect.forEach(
      distinct,
      (frame) =>
        capacity.withSlot(
          renderer.keyframe(scene, frame).pipe(
            Effect.catchAll(renderRefusal),
            Effect.timeoutFail({ duration: limit, onTimeout: () => tooLong })
          )
        ).pipe(Effect.map((png) => [frame, png] as const)),
      { concurrency: capacity.nodeSlots }
    )
    const pngs = new Map(drawn)
    const archive = yield* buildZip(
      body.frames.map((keyframe) => ({ name: pngName(keyframe.name), buffer: pngs.get(keyframe.frame)! })),
      { compress: false }
    ).pipe(
      Effect.provideService(BlobStorage, blobs),
      // Every entry is an in-memory PNG: no blob is opened, so none can be missing.
      Effect.catchTag("BlobNotFound", Effect.die)
    )
    const { template, variant, build } = resolved
    const filename = safeName(`${template.name} ${variant.name} ${build.version} ${body.ratio} ${locale} keyframes.zip`)
    return { archive, filename }
  })

  return { draw }
})

export class Keyframes extends Context.Tag("clipwright/services/Keyframes")<
  Keyframes,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Keyframes, make)
}
