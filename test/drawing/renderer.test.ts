import { assert, describe, it } from "@effect/vitest"
import { Effect, FiberRef, Layer, Ref } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { afterAll } from "vitest"
import { DrawingRenderer } from "../../src/drawing/DrawingRenderer.js"
import { defaultCacheDir } from "../../src/drawing/Render.js"
import { Renderer } from "../../src/drawing/Renderer.js"
import { cleanup, scene, tmp } from "./fixtures.js"

afterAll(cleanup)

const DrawingLive = Layer.succeed(Renderer, DrawingRenderer.make({ cacheDir: defaultCacheDir() }))

describe("the Renderer port over the drawing engine", () => {
  it.scopedLive("runs the progress effect in the caller's fiber context, ending with 1 before the clip is back", () =>
    Effect.gen(function*() {
      const renderer = yield* Renderer
      const caller = yield* FiberRef.make("elsewhere")
      const seen = yield* Ref.make<Array<readonly [number, string]>>([])
      const outputPath = join(tmp(), "clip.mp4")
      const onProgress = (fraction: number) =>
        Effect.flatMap(FiberRef.get(caller), (who) => Ref.update(seen, (all) => [...all, [fraction, who] as const]))
      const clip = renderer.clip(scene({ frames: 60 }), { outputPath, onProgress })
      const result = yield* Effect.locally(clip, caller, "caller")
      const reports = yield* Ref.get(seen)
      assert.strictEqual(result.frames, 60)
      assert.isTrue(existsSync(outputPath))
      assert.isAbove(reports.length, 1)
      assert.strictEqual(reports.at(-1)?.[0], 1)
      const rising = reports.every(([fraction], i) => i === 0 || fraction > reports[i - 1]![0])
      assert.isTrue(rising)
      assert.isTrue(reports.every(([, who]) => who === "caller"))
    }).pipe(Effect.provide(DrawingLive)))

  it.live("refuses an undrawable locale with the API's error before starting anything", () =>
    Effect.gen(function*() {
      const renderer = yield* Renderer
      const error = yield* Effect.flip(renderer.keyframe(scene({ locale: "ar" }), 0))
      assert.strictEqual(error._tag, "LocaleNotSupported")
      assert.strictEqual(error.message, "Nothing is drawn in ar.")
    }).pipe(Effect.provide(DrawingLive)))
})
