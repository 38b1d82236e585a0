import { Context, Effect, FiberRef, Layer, Option } from "effect"
import { entityCall } from "../domain/EntityCalls.js"
import { Conflict, detailAt, NotFound, SchemaValidation } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { ulidForRequest } from "../domain/Ulid.js"
import type { CreateBrandBody, UpdateBrandBody } from "./Brand.js"
import { BrandEntity } from "./BrandEntity.js"
import { BrandRepo } from "./BrandRepo.js"
import { BrandWearers } from "./BrandWearers.js"
import { isHexColor } from "./Contrast.js"
import { draftStyle, firstFreeName } from "./Draft.js"
import { derivePalette } from "./Palette.js"
import type { PaletteBody } from "./PaletteBody.js"
import { mergeStyle } from "./StyleMerge.js"
import { toSummary, toView } from "./Views.js"

const paletteInvalid = (message: string, path: ReadonlyArray<string>, rule: string) =>
  new SchemaValidation({ message, details: [detailAt(path, message, rule)] })

/** The palette route; pure, so it needs nothing from the workspace. */
export const palette = (body: PaletteBody) => {
  const b = body ?? {}
  if (b.brand === undefined || b.brand === null) {
    const message = "The brand colour is required (a hex colour like #1F6FEB)."
    return Effect.fail(paletteInvalid(message, ["palette", "brand"], "required"))
  }
  if (typeof b.brand !== "string" || !isHexColor(b.brand) || !b.brand.startsWith("#")) {
    const message = "The brand colour must be a hex colour like #1F6FEB."
    return Effect.fail(paletteInvalid(message, ["palette", "brand"], "pattern"))
  }
  const direction = b.direction ?? "green-up"
  for (const key of ["positive", "negative"] as const) {
    if (b[key] !== undefined && direction !== "custom") {
      return Effect.fail(paletteInvalid(`${key} is only taken with direction "custom".`, [key], "custom-only"))
    }
  }
  return Effect.succeed(derivePalette({
    brand: b.brand,
    stage: b.stage ?? "dark",
    direction,
    background: b.background,
    positive: b.positive,
    negative: b.negative,
    second: b.second,
    overrides: b.overrides
  }))
}

const make = Effect.gen(function*() {
  const repo = yield* BrandRepo
  const wearers = yield* BrandWearers
  const entity = yield* BrandEntity.client
  const requestId = FiberRef.get(CurrentRequestId)

  const requireLive = (workspaceId: WorkspaceId, id: string) =>
    repo.findLive(workspaceId, id).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `No brand ${id}.` })),
        onSome: Effect.succeed
      }))
    )

  const list = Effect.fn("Brands.list")(function*(workspaceId: WorkspaceId) {
    const [rows, wearing] = yield* Effect.all([repo.listLive(workspaceId), wearers.wearing(workspaceId)])
    return { brands: rows.map((row) => toSummary(row, wearing.get(row.id) ?? [])) }
  })

  const get = Effect.fn("Brands.get")(function*(workspaceId: WorkspaceId, id: string) {
    return { brand: toView(yield* requireLive(workspaceId, id)) }
  })

  const draft = Effect.fn("Brands.draft")(function*(workspaceId: WorkspaceId) {
    return { name: firstFreeName(yield* repo.liveNames(workspaceId)), style: draftStyle() }
  })

  const create = Effect.fn("Brands.create")(function*(workspaceId: WorkspaceId, body: CreateBrandBody) {
    const currentRequest = yield* requestId
    const id = ulidForRequest(currentRequest, `brand:${workspaceId}`)
    // A retried request (same x-request-id) finds what its first attempt created.
    const earlier = yield* repo.findLive(workspaceId, id)
    if (Option.isSome(earlier)) return { brand: toView(earlier.value) }
    if (body.name !== undefined && (yield* repo.nameTaken(workspaceId, body.name, null))) {
      return yield* new Conflict({
        message: `A brand called "${body.name}" already exists in this workspace; choose another name.`,
        details: [detailAt(["name"], "name in use", "unique")]
      })
    }
    const name = body.name ?? firstFreeName(yield* repo.liveNames(workspaceId))
    const brand = yield* entityCall(
      entity(id).Create({
        requestId: currentRequest,
        workspaceId,
        name,
        enabled: body.enabled ?? true,
        style: mergeStyle(draftStyle(name), body.style ?? {})
      })
    )
    return { brand }
  })

  const update = Effect.fn("Brands.update")(function*(workspaceId: WorkspaceId, id: string, body: UpdateBrandBody) {
    const brand = yield* entityCall(entity(id).Update({ requestId: yield* requestId, workspaceId, ...body }))
    return { brand }
  })

  const remove = Effect.fn("Brands.delete")(function*(
    workspaceId: WorkspaceId,
    id: string,
    moveTo: string | undefined
  ) {
    const { moved } = yield* entityCall(
      entity(id).Delete({ requestId: yield* requestId, workspaceId, moveTo: moveTo ?? null })
    )
    return { deleted: true as const, moved }
  })

  return { list, get, draft, create, update, remove, palette }
})

export class Brands extends Context.Tag("clipwright/brands/Brands")<Brands, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Brands, make)
}
