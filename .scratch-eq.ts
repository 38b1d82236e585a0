import { readFileSync } from "node:fs"
import { prepare } from "./src/render/Frames.js"
import { dirtyRows } from "./src/render/Dirty.js"
import { frameBytes, paintRect, rgbaToI420 } from "./src/render/Yuv.js"
const scene = JSON.parse(readFileSync(process.argv[2] ?? "/tmp/scratch/scene.json", "utf8"))
const { width: W, height: H } = scene
const src = await prepare(scene)
src.drawStill()
const still = Buffer.alloc(frameBytes(W, H)); rgbaToI420(src.canvas.data(), W, H, still)
const a = Buffer.alloc(frameBytes(W, H)), b = Buffer.alloc(frameBytes(W, H))
let bad = 0, rowsSum = 0, conv = 0
for (let f = 0; f < scene.frames; f++) {
  src.draw(f); rgbaToI420(src.canvas.data(), W, H, a)
  b.set(still)
  const rows = dirtyRows(src.plan, src.timeOf(f))
  if (f < src.timeline.stillFrom && rows) { src.draw(f); const t = performance.now(); rgbaToI420(src.canvas.getContext("2d").getImageData(0, rows.y0, W, rows.y1 - rows.y0).data, W, H, b, rows.y0, rows.y1, true); conv += performance.now() - t; rowsSum += rows.y1 - rows.y0 }
  const bar = src.plan.bar
  paintRect(b, W, H, { x: bar.x, y: bar.y, w: src.barWidth(f), h: bar.h }, src.barColour)
  if (!a.equals(b)) { bad++; let d = 0; for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) d++; if (bad < 5) console.log("frame", f, "differs bytes", d, rows) }
  await new Promise((r) => setImmediate(r))
}
console.log("stillFrom", src.timeline.stillFrom, "bad", bad, "avg rows", rowsSum / src.timeline.stillFrom, "conv ms/frame", conv / src.timeline.stillFrom)
