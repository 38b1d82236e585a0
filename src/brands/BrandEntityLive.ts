import { Entity } from "@effect/cluster"
import { Effect, Option } from "effect"
import { Conflict, detailAt, NotFound } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { withOutageRetries } from "../sql/OutageRetries.js"
import { BrandEntity } from "./BrandEntity.js"
import { BrandRepo } from "./BrandRepo.js"
import { BrandWearers } from "./BrandWearers.js"
import { applySlotEdit } from "./SlotStyle.js"
import { identityRename, mergeStyle } from "./StyleMerge.js"
import { toView } from "./Views.js"

export const BrandEntityLive = BrandEntity.toLayer(
  Effect.gen(function*() {
    const repo = yield* BrandRepo
    const wearers = yield* BrandWearers
    const brandId = (yield* Entity.CurrentAddress).entityId

    const notFound = () => new NotFound({ message: `No brand ${brandId}.` })
    const nameInUse = (name: string) =>
      new Conflict({
        message: `A brand called "${name}" already exists in this workspace; choose another name.`,
        details: [detailAt(["name"], "name in use", "unique")]
      })

    const requireLive = (workspaceId: WorkspaceId, lock = false) =>
      (lock ? repo.lockLive(workspaceId, brandId) : repo.findLive(workspaceId, brandId)).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound()), onSome: Effect.succeed }))
      )

    return BrandEntity.of(withOutageRetries({
      Create: ({ payload }) =>
        Effect.gen(function*() {
          const { enabled, name, style, workspaceId } = payload
          const inserted = yield* repo.insert(workspaceId, { id: brandId, name, enabled, style })
          if (Option.isSome(inserted)) return toView(inserted.value)
          // Delivery is at-least-once: a re-run of the request that created the row is a success.
          const existing = yield* repo.find(workspaceId, brandId)
          if (Option.isSome(existing)) return toView(existing.value)
          return yield* nameInUse(name)
        }).pipe(Effect.withSpan("Brand.create", { attributes: { brandId } })),

      Update: ({ payload }) =>
        Effect.gen(function*() {
          const { workspaceId } = payload
          const row = yield* requireLive(workspaceId, true)
          const style = payload.style === undefined ? row.style : mergeStyle(row.style, payload.style)
          const enabled = payload.enabled ?? row.enabled
          const explicit = payload.name
          // A rename through `style.identity.name` yields to another brand holding the name; the save goes on.
          let name = explicit ?? identityRename(payload.style) ?? row.name
          if (name !== row.name && (yield* repo.nameTaken(workspaceId, name, brandId))) {
            if (explicit !== undefined) return yield* nameInUse(name)
            name = row.name
          }
          // A savepoint: a name taken meanwhile aborts only this write, and the save goes on under the old name.
          const saved = yield* repo.withTransaction(repo.write(workspaceId, brandId, { name, enabled, style })).pipe(
            Effect.catchTag("NameTaken", () =>
              explicit !== undefined
                ? Effect.fail(nameInUse(name))
                : repo.write(workspaceId, brandId, { name: row.name, enabled, style }).pipe(Effect.orDie))
          )
          return yield* Option.match(saved, {
            onNone: () => Effect.fail(notFound()),
            onSome: (r) => Effect.succeed(toView(r))
          })
        }).pipe(
          // The row stays locked from read to write, so a slot file written meanwhile is not merged away.
          (update) => repo.withTransaction(update),
          Effect.withSpan("Brand.update", { attributes: { brandId } })
        ),

      // Only the file slots change; name and switches stay as stored.
      EditSlots: ({ payload }) =>
        Effect.gen(function*() {
          const row = yield* requireLive(payload.workspaceId)
          const { previous, style } = applySlotEdit(row.style, payload.edit)
          const saved = yield* repo.write(payload.workspaceId, brandId, { name: row.name, enabled: row.enabled, style })
            .pipe(Effect.orDie)
          return yield* Option.match(saved, {
            onNone: () => Effect.fail(notFound()),
            onSome: (r) => Effect.succeed({ brand: toView(r), previous })
          })
        }).pipe(Effect.withSpan("Brand.editSlots", { attributes: { brandId } })),

      Delete: ({ payload }) =>
        Effect.gen(function*() {
          const { moveTo, workspaceId } = payload
          yield* requireLive(workspaceId, true)
          const wearing = (yield* wearers.wearing(workspaceId)).get(brandId) ?? []
          if (moveTo === null) {
            if (wearing.length > 0) {
              return yield* new Conflict({
                message: `Brand ${brandId} is worn by ${wearing.length} channel${wearing.length === 1 ? "" : "s"}; ` +
                  "send moveTo with another brand to move them.",
                details: [detailAt(["moveTo"], `${wearing.length} channels wear this brand`, "required")]
              })
            }
            yield* repo.markDeleted(workspaceId, brandId)
            return { moved: 0 }
          }
          if (moveTo === brandId || Option.isNone(yield* repo.findLive(workspaceId, moveTo))) {
            return yield* new NotFound({
              message: `No other brand ${moveTo} to move channels to.`,
              details: [detailAt(["moveTo"], "no such brand")]
            })
          }
          const moved = yield* wearers.move(workspaceId, brandId, moveTo)
          yield* repo.markDeleted(workspaceId, brandId)
          return { moved }
        }).pipe(
          // One transaction, the brand row locked from the count on: the channels move and the brand goes in one
          // step, so no channel is ever left wearing a deleted brand.
          (remove) => repo.withTransaction(remove),
          Effect.withSpan("Brand.delete", { attributes: { brandId } })
        )
    }))
  }),
  { maxIdleTime: "5 minutes" }
)
