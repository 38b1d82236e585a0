import { Context, Effect, Layer, Stream } from "effect"
import { BrandLooks } from "../../brands/BrandLooks.js"
import { detailAt, RenderTimeout, SchemaValidation } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { Renderer } from "../../drawing/Renderer.js"
import { streamedZip } from "../../storage/Zip.js"
import { safeName } from "../../storage/ZipNames.js"
import type { Content } from "../../templates/format/Template.js"
import { TemplateClearance } from "../../templates/TemplateClearance.js"
import { RenderCapacity } from "../allowance/RenderCapacity.js"
import { noSlotsHere, renderRefusal } from "../RenderRefusals.js"
import { describeLimit, renderTimeLimit } from "../RenderTimeLimit.js"
import { sceneFor, sizeOf } from "../Scenes.js"
import { DrawTurns } from "./DrawTurns.js"
import { checkExport, resolveExportBuild } from "./ExportChecks.js"
import type { KeyframesBody } from "./KeyframesBody.js"

const DEFAULT_LOCALE = "en"

/** `<name>.png`; a name already ending in .png is not given a second one. */
const pngName = (name: string) => `${name.replace(/\.png$/i, "")}.png`

/** Frames of one request drawn at once: enough to keep two slots busy, few enough to hold little memory. */
const DRAWN_AHEAD = 2

/**
 * Stills of a build for this content (`POST /v1/direct-export/keyframes`): every start refusal except the
 * allowance, which keyframes never touch. Frames are drawn in order, in this node's render slots by the workspace's
 * turns (DrawTurns), and go into the zip as they are drawn: a request holds a couple of PNGs, not all of them. The
 * request holds its place among the workspace's requests in progress until the caller's scope closes (the answer
 * written).
 */
const make = Effect.gen(function*() {
  const capacity = yield* RenderCapacity
  const turns = yield* DrawTurns
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
    yield* turns.admit(workspaceId)
    const size = sizeOf(body.ratio)
    const output = { ...size, ratio: body.ratio, locale }
    const extras = yield* looks.extrasFor(workspaceId, brand?.id ?? null, body.data, output)
    const scene = sceneFor(resolved.build, body.data as Content, body.ratio, locale, extras)
    const limit = timeLimit(total, resolved.build.fps)
    const tooLong = new RenderTimeout({
      message: `Drawing a keyframe took longer than the time limit of ${describeLimit(limit)}; ask again.`
    })
    const drawOne = (frame: number) =>
      turns.turn(
        workspaceId,
        renderer.keyframe(scene, frame).pipe(
          Effect.catchAll(renderRefusal),
          Effect.timeoutFail({ duration: limit, onTimeout: () => tooLong })
        )
      )
    // The first frame is drawn before the answer starts, so a scene the renderer refuses is an error answer rather than
    // a zip cut off; a later frame that fails ends the download early (the client sees an incomplete transfer).
    const [first, ...rest] = body.frames
    const firstPng = yield* drawOne(first!.frame)
    const pngs = Stream.concat(
      Stream.succeed(firstPng),
      Stream.fromIterable(rest).pipe(
        Stream.mapEffect((keyframe) => drawOne(keyframe.frame), { concurrency: DRAWN_AHEAD })
      )
    )
    const archive = streamedZip(body.frames.map((keyframe) => pngName(keyframe.name)), pngs)
    const { template, variant, build } = resolved
    const filename = safeName(`${template.name} ${variant.name} ${build.version} ${body.ratio} ${locale} keyframes.zip`)
    return { archive, filename }
  })

  return { draw }
})

export class Keyframes extends Context.Tag("clipwright/renders/exports/Keyframes")<
  Keyframes,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Keyframes, make)
}
