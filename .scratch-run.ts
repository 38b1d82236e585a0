import { readFileSync } from "node:fs"
import { renderClip } from "/work/main/src/render/Render.ts"
import { readMp4Info } from "/work/main/src/render/Mp4Info.ts"
const scene = JSON.parse(readFileSync(process.argv[2] ?? "/tmp/scratch/scene.json", "utf8"))
const t = performance.now()
const r = await renderClip(scene, { outputPath: "/tmp/scratch/out.mp4", onProgress: (p) => process.stdout.write(`${p.toFixed(2)} `) })
console.log("\n", r, ((performance.now() - t) / 1000).toFixed(2), "s")
console.log(JSON.stringify(await readMp4Info("/tmp/scratch/out.mp4")))
