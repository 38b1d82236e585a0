/**
 * Drawer child process. Reads a SceneInput as JSON on stdin and writes to stdout either raw yuv420p
 * frames (`video`, stdout is ffmpeg's stdin; yuva420p over a video background) or one PNG (`keyframe <frame>`).
 * In `video` mode it first tells on fd 3 whether ffmpeg may draw the still tail (one JSON line, see StillTail.ts),
 * then waits for a byte there: ffmpeg's arguments depend on the layout, so it is started only then.
 * A native crash here takes down only this process.
 */
import { Socket } from "node:net"
import { dirtyRows } from "./Dirty.js"
import { prepare } from "./Frames.js"
import type { SceneInput } from "./Scene.js"
import { fitsTail } from "./StillTail.js"
import type { StillTail } from "./StillTail.js"
import { videoFrames } from "./VideoFrames.js"
import { alphaPlane, frameBytes, paintRect, rgbaBlockToI420, rgbaToI420 } from "./Yuv.js"

const readStdin = async (): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

const write = (buf: Uint8Array): Promise<void> =>
  new Promise((resolve, reject) => process.stdout.write(buf, (err) => (err ? reject(err) : resolve())))

// Readback buffers are freed by finalizers that only run when the event loop turns.
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

// Readbacks are native memory V8 barely sees, so it collects them late (+190 MB over 45 frames at
// 1080x1920); a collection every few frames (the drawer runs with --expose-gc) keeps the drawer flat.
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined)

/** Tells the orchestrator how the frames will come, and resolves once ffmpeg is there to take them. */
const announce = (tail: StillTail | null): Promise<void> =>
  new Promise((resolve, reject) => {
    const control = new Socket({ fd: 3, readable: true, writable: true })
    control.once("data", () => {
      control.destroy()
      resolve()
    })
    control.once("end", () => reject(new Error("the orchestrator went away before starting ffmpeg")))
    control.once("error", reject)
    control.write(`${JSON.stringify({ tail })}\n`)
  })

const video = async (scene: SceneInput) => {
  const src = await prepare(scene)
  const { width, height, frames } = scene
  // Over a video background the frames are yuva420p; the alpha needs straight (not premultiplied) pixels.
  const alpha = src.transparent
  const { bar } = src.plan
  const tail = !alpha && src.badge === undefined && fitsTail(bar, width, height)
    ? { stillFrom: src.timeline.stillFrom, bar: { x: bar.x, y: bar.y, w: bar.w, h: bar.h } }
    : null
  const ready = announce(tail)
  ready.catch(() => undefined)
  const bytes = frameBytes(width, height, alpha)
  // The finished scene is converted once; animated frames convert only the rows still moving.
  src.drawStill()
  const still = Buffer.allocUnsafe(bytes)
  const whole = alpha ? src.canvas.getContext("2d").getImageData(0, 0, width, height).data : src.canvas.data()
  rgbaToI420(whole, width, height, still)
  if (alpha) alphaPlane(whole, width, height, still)
  const buf = Buffer.allocUnsafe(bytes)
  await ready
  // A video badge plays in its box: drawn with the scene while anything else moves, else laid straight into the frame.
  const badge = src.badge
  const played = badge === undefined ? undefined : videoFrames(badge.path, badge.w, badge.h, scene.fps, frames)
  let shown: Buffer | undefined
  for (let f = 0; f < (tail === null ? frames : tail.stillFrom); f++) {
    buf.set(still)
    let rows = f < src.timeline.stillFrom ? dirtyRows(src.plan, src.timeOf(f)) : undefined
    if (badge !== undefined && played !== undefined) {
      shown = (await played.next()) ?? shown
      if (rows === undefined) {
        // Only the badge moves, and it is opaque and whole: its pixels go straight into the frame.
        if (shown !== undefined) rgbaBlockToI420(shown, badge.w, badge.h, buf, width, height, badge.x, badge.y)
      } else {
        if (shown !== undefined) badge.show(shown)
        rows = { y0: Math.min(rows.y0, badge.rows.y0), y1: Math.max(rows.y1, badge.rows.y1) }
      }
    }
    if (rows !== undefined) {
      src.draw(f)
      const band = src.canvas.getContext("2d").getImageData(0, rows.y0, width, rows.y1 - rows.y0).data
      rgbaToI420(band, width, height, buf, rows.y0, rows.y1, true)
      if (alpha) alphaPlane(band, width, height, buf, rows.y0, rows.y1, true)
      if (f % 4 === 3) collect()
    }
    paintRect(buf, width, height, { x: bar.x, y: bar.y, w: src.barWidth(f), h: bar.h }, src.barColour, alpha)
    await write(buf)
    await turn()
  }
  played?.close()
  if (tail !== null) {
    await write(still)
    paintRect(still, width, height, tail.bar, src.barColour)
    await write(still)
  }
}

const keyframe = async (scene: SceneInput, frame: number) => {
  const src = await prepare(scene)
  src.draw(Math.max(0, Math.min(scene.frames - 1, frame)))
  await write(await src.canvas.encode("png"))
}

const main = async () => {
  const [mode = "video", arg] = process.argv.slice(2)
  const scene = JSON.parse(await readStdin()) as SceneInput
  if (mode === "keyframe") await keyframe(scene, Number(arg ?? 0))
  else await video(scene)
}

process.stdout.on("error", (err) => {
  process.stderr.write(`drawer: output closed: ${err.message}\n`)
  process.exit(3)
})

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`drawer: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    process.exit(1)
  }
)
