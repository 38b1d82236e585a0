import { createCanvas, loadImage } from "@napi-rs/canvas"
import { writeFileSync } from "node:fs"
const [out, ...files] = process.argv.slice(2)
const imgs = await Promise.all(files.map((f) => loadImage(f)))
const H = 900
const widths = imgs.map((i) => (i.width * H) / i.height)
const c = createCanvas(Math.ceil(widths.reduce((a, b) => a + b + 10, 0)), H)
const x = c.getContext("2d"); x.fillStyle = "#888"; x.fillRect(0, 0, c.width, H)
let at = 0
imgs.forEach((i, k) => { x.drawImage(i, at, 0, widths[k]!, H); at += widths[k]! + 10 })
writeFileSync(out!, c.toBuffer("image/png"))
