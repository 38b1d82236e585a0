import { Effect, Fiber } from "effect"
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { DrawingRenderer } from "../../src/drawing/DrawingRenderer.js"
import { defaultCacheDir, renderClip } from "../../src/drawing/Render.js"
import { RenderInterrupted } from "../../src/drawing/RenderError.js"
import { alive, childPids, cleanup, scene, tmp } from "./fixtures.js"

const renderer = DrawingRenderer.make({ cacheDir: defaultCacheDir() })

afterAll(cleanup)

// Long enough to be interrupted mid-way: 30 s at 320x568.
const long = scene({ width: 320, height: 568, frames: 900 })

/**
 * Waits until the render has both children running (ffmpeg starts once the drawer has laid the scene out). The
 * drawer ends after the animated frames, ffmpeg draws the still tail, so the window is short: poll closely.
 */
const started = async () => {
  const deadline = Date.now() + 20_000
  let pids = childPids(process.pid)
  while (pids.length < 2 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1))
    pids = childPids(process.pid)
  }
  expect(pids.length).toBe(2)
  return pids
}

/** The killed children are gone soon after the abort (a loaded machine reaps them later than at once). */
const gone = async (pids: ReadonlyArray<number>) => {
  const deadline = Date.now() + 5000
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  return pids.filter(alive)
}

describe("interruption", () => {
  it("an abort signal kills the drawer and ffmpeg and leaves no file", async () => {
    const dir = tmp()
    const controller = new AbortController()
    const job = renderClip(long, { outputPath: join(dir, "a.mp4"), signal: controller.signal }).catch((e: unknown) => e)
    const pids = await started()
    controller.abort()
    expect(await job).toBeInstanceOf(RenderInterrupted)
    expect(await gone(pids)).toEqual([])
    expect(readdirSync(dir)).toEqual([])
  })

  it("interrupting the Effect's fiber waits until both children are gone", async () => {
    const dir = tmp()
    const fiber = Effect.runFork(renderer.clip(long, { outputPath: join(dir, "b.mp4") }))
    const pids = await started()
    await Effect.runPromise(Fiber.interrupt(fiber))
    expect(pids.filter(alive)).toEqual([])
    expect(readdirSync(dir)).toEqual([])
  })
})
