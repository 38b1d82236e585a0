import { Context, Deferred, Effect, Layer } from "effect"
import { UpstreamUnavailable } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { RenderCapacity } from "../allowance/RenderCapacity.js"

/** What a refused keyframes request is told to wait: about one such request's drawing. */
const RETRY_AFTER_SECONDS = 10
/** Requests in progress on a node, per render slot, across workspaces: each holds a couple of frames at most. */
const REQUESTS_PER_SLOT = 3

interface Waiter {
  readonly workspaceId: WorkspaceId
  readonly go: Deferred.Deferred<void>
}

/**
 * Turns at this node's render slots for draws a caller waits for (keyframes), shared between workspaces. Turns are
 * handed round robin over the workspaces that wait, and while another workspace waits or draws, none holds more than
 * half the slots (rounded up), so one workspace's keyframes cannot starve another's. A workspace may have as many
 * requests in progress as the node has slots (at least two: one drawing, one waiting); past that, or past the node's
 * own bound, a request is refused at once (503) rather than queued without end.
 */
const make = Effect.gen(function*() {
  const capacity = yield* RenderCapacity
  const slots = Math.max(1, capacity.nodeSlots)
  const perWorkspace = Math.max(2, slots)
  const perNode = slots * REQUESTS_PER_SLOT
  const admitted = new Map<WorkspaceId, number>()
  const drawing = new Map<WorkspaceId, number>()
  const waiting: Array<Waiter> = []
  let totalAdmitted = 0
  let totalDrawing = 0
  let lastServed: WorkspaceId | undefined

  const count = (map: Map<WorkspaceId, number>, id: WorkspaceId, by: number) => {
    const next = (map.get(id) ?? 0) + by
    if (next === 0) map.delete(id)
    else map.set(id, next)
  }

  const busyWorkspaces = () => new Set([...drawing.keys(), ...waiting.map((w) => w.workspaceId)]).size
  const shareOf = () => busyWorkspaces() > 1 ? Math.ceil(slots / 2) : slots

  /** The next waiter in round-robin order (the workspace after the one served last), within its workspace's share. */
  const nextWaiter = (): number => {
    const share = shareOf()
    const order = [...new Set(waiting.map((w) => w.workspaceId))].sort()
    const start = lastServed === undefined ? 0 : order.findIndex((id) => id > lastServed!)
    const rotated = start <= 0 ? order : [...order.slice(start), ...order.slice(0, start)]
    const eligible = rotated.find((id) => (drawing.get(id) ?? 0) < share)
    return eligible === undefined ? -1 : waiting.findIndex((w) => w.workspaceId === eligible)
  }

  const dispatch = () => {
    while (totalDrawing < slots) {
      const i = nextWaiter()
      if (i < 0) return
      const [waiter] = waiting.splice(i, 1)
      count(drawing, waiter!.workspaceId, 1)
      totalDrawing++
      lastServed = waiter!.workspaceId
      Deferred.unsafeDone(waiter!.go, Effect.void)
    }
  }

  const done = (workspaceId: WorkspaceId) =>
    Effect.sync(() => {
      count(drawing, workspaceId, -1)
      totalDrawing--
      dispatch()
    })

  /** Waits for the workspace's turn; the turn ends with `draw`, or when the wait is given up. */
  const turn = <A, E, R>(workspaceId: WorkspaceId, draw: Effect.Effect<A, E, R>) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function*() {
        const waiter: Waiter = { workspaceId, go: yield* Deferred.make<void>() }
        waiting.push(waiter)
        dispatch()
        yield* restore(Deferred.await(waiter.go)).pipe(
          Effect.onInterrupt(() =>
            Effect.suspend(() => {
              const i = waiting.indexOf(waiter)
              if (i >= 0) return Effect.sync(() => waiting.splice(i, 1))
              return done(workspaceId)
            })
          )
        )
        return yield* restore(capacity.withSlot(draw)).pipe(Effect.ensuring(done(workspaceId)))
      })
    )

  /** Holds one of the workspace's requests in progress until the scope closes (the answer written, or given up). */
  const admit = (workspaceId: WorkspaceId) =>
    Effect.acquireRelease(
      Effect.suspend(() => {
        if ((admitted.get(workspaceId) ?? 0) >= perWorkspace) {
          return Effect.fail(
            new UpstreamUnavailable({
              message: `This workspace already has ${perWorkspace} keyframes requests in progress on this node; ` +
                "ask again when one has finished.",
              retryAfterSeconds: RETRY_AFTER_SECONDS
            })
          )
        }
        if (totalAdmitted >= perNode) {
          return Effect.fail(
            new UpstreamUnavailable({
              message: "This node is busy drawing keyframes; ask again shortly.",
              retryAfterSeconds: RETRY_AFTER_SECONDS
            })
          )
        }
        count(admitted, workspaceId, 1)
        totalAdmitted++
        return Effect.void
      }),
      () =>
        Effect.sync(() => {
          count(admitted, workspaceId, -1)
          totalAdmitted--
        })
    )

  return {
    admit,
    turn,
    /** Draws waiting for a turn on this node, all workspaces together. */
    waiting: Effect.sync(() => waiting.length)
  }
})

export class DrawTurns extends Context.Tag("clipwright/renders/exports/DrawTurns")<
  DrawTurns,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(DrawTurns, make)
}
