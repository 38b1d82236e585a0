import { readFileSync, readdirSync } from "node:fs"
import { renderClip } from "./src/render/Render.js"
import { childPids } from "./test/render/fixtures.js"
const scene = JSON.parse(readFileSync("/tmp/scratch/scene.json", "utf8"))
const peaks = new Map<string, number>()
const sample = () => {
  const self = Number(readFileSync(`/proc/self/statm`, "utf8").split(" ")[1]) * 4096
  peaks.set("self", Math.max(peaks.get("self") ?? 0, self))
  for (const pid of childPids(process.pid)) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("ffmpeg") ? "ffmpeg" : "drawer"
      const rss = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * 4096
      peaks.set(cmd, Math.max(peaks.get(cmd) ?? 0, rss))
    } catch {}
  }
}
const t = setInterval(sample, 10)
await renderClip(scene, { outputPath: "/tmp/scratch/m.mp4" })
clearInterval(t)
console.log([...peaks].map(([k, v]) => `${k} ${(v / 1e6).toFixed(0)} MB`).join(", "))
