import { createCanvas } from "@napi-rs/canvas"
import { rgbaToI420 } from "./src/render/Yuv.js"
const c = createCanvas(1080, 1920); const ctx = c.getContext("2d"); ctx.fillStyle = "#345"; ctx.fillRect(0, 0, 1080, 1920)
const d = c.data(); console.log("offset", d.byteOffset, d.length)
const dst = Buffer.alloc(1080 * 1920 * 1.5)
for (let r = 0; r < 3; r++) { const t = performance.now(); for (let i = 0; i < 20; i++) rgbaToI420(d, 1080, 1920, dst); console.log("full ms", (performance.now() - t) / 20) }
let t = performance.now(); for (let i = 0; i < 20; i++) c.data(); console.log("data ms", (performance.now() - t) / 20)
