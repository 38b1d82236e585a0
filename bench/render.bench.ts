/**
 * Renderer benchmark (not a test): `node --import tsx bench/render.bench.ts [rounds]`.
 * Renders a 10 s 1080x1920 30 fps clip of each layout and, in the same rounds, lets ffmpeg encode the same
 * number of frames from testsrc2 with the same settings (the encode-only limit). Peak RSS sums the whole
 * process tree (this process, the drawer, ffmpeg), sampled from /proc.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { defaultEncoder, ffmpegPath, videoCodecArgs } from "../src/drawing/Ffmpeg.js"
import { renderClip } from "../src/drawing/Render.js"
import type { Layout, SceneInput } from "../src/drawing/Scene.js"
import { allProcesses, childrenCpuSeconds, parentOf, statOf } from "./support/Proc.js"

const rounds = Number(process.argv[2] ?? 3)
const W = 1080
const H = 1920
const FPS = 30
const FRAMES = 300
const dir = mkdtempSync(join(tmpdir(), "clipwright-bench-"))

const scene = (layout: Layout): SceneInput => ({
  width: W,
  height: H,
  fps: FPS,
  frames: FRAMES,
  layout,
  locale: "en",
  look: {
    background: ["#0f172a", "#1e1b4b"],
    accent: "#38bdf8",
    positive: "#22c55e",
    negative: "#ef4444",
    text: "#f8fafc",
    mutedText: "#94a3b8",
    radius: 28
  },
  safeArea: { top: 120, right: 60, bottom: 200, left: 60 },
  brand: { name: "Clipwright News" },
  content: {
    headline: "Eurozone inflation cools for a third straight month",
    subline: "Core prices rose less than economists expected, giving the ECB room to pause",
    figures: [
      { label: "Headline CPI", value: 2.4, unit: "%", direction: "down" },
      { label: "Core CPI", value: 3.61, unit: "%", direction: "down" },
      { label: "Unemployment", value: 6.5, unit: "%", direction: "flat" },
      { label: "GDP growth, year on year", value: 0.1, unit: "%", direction: "up" }
    ],
    bullets: [
      "Prices in services rose 3.9%, the slowest pace since spring",
      "Energy costs fell for the fourth month in a row",
      "Food inflation eased to 2.7%",
      "Markets now price two rate cuts by June"
    ],
    source: "Source: Eurostat flash estimate, November 2024"
  }
})

const pageSize = 4096

type Role = "orchestrator" | "drawer" | "ffmpeg" | "other"

/** RSS per role over the process tree rooted at this process. */
const treeRss = (root: number): Record<Role, number> => {
  const parents = new Map(allProcesses().map((p) => [p.pid, parentOf(p)]))
  const total: Record<Role, number> = { orchestrator: 0, drawer: 0, ffmpeg: 0, other: 0 }
  for (const pid of parents.keys()) {
    let p: number | undefined = pid
    while (p !== undefined && p !== root && p > 1) p = parents.get(p)
    if (p !== root) continue
    try {
      const rss = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * pageSize
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8")
      const role: Role = pid === root
        ? "orchestrator"
        : cmd.includes("ffmpeg")
        ? "ffmpeg"
        : cmd.includes("drawer")
        ? "drawer"
        : "other"
      total[role] += rss
    } catch {
      // Ended.
    }
  }
  return total
}

/** CPU seconds of the reaped children (drawer, ffmpeg): the work, whatever else loads the machine. */
const cpuSeconds = (): number => childrenCpuSeconds(statOf("self"))

const sum = (r: Record<Role, number>) => r.orchestrator + r.drawer + r.ffmpeg + r.other

const measure = async <A>(run: () => Promise<A>) => {
  let peak = 0
  const roles: Record<Role, number> = { orchestrator: 0, drawer: 0, ffmpeg: 0, other: 0 }
  const timer = setInterval(() => {
    const now = treeRss(process.pid)
    peak = Math.max(peak, sum(now))
    for (const k of Object.keys(roles) as Array<Role>) roles[k] = Math.max(roles[k], now[k])
  }, 20)
  const c0 = cpuSeconds()
  const t0 = performance.now()
  const result = await run()
  const wall = (performance.now() - t0) / 1000
  clearInterval(timer)
  return { result, wall, peak, roles, cpu: cpuSeconds() - c0 }
}

const encodeOnly = (out: string) =>
  new Promise<number>((resolve, reject) => {
    const args = [
      "-hide_banner",
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      `testsrc2=size=${W}x${H}:rate=${FPS}`,
      "-frames:v",
      String(FRAMES),
      "-vf",
      "setsar=1",
      ...videoCodecArgs(FPS, defaultEncoder),
      "-movflags",
      "+faststart",
      "-y",
      out
    ]
    const p = spawn(ffmpegPath(), args, { stdio: "ignore" })
    p.on("error", reject)
    p.on("close", (code) => (code === 0 ? resolve(0) : reject(new Error(`ffmpeg exited ${code}`))))
  })

interface Row {
  wall: Array<number>
  ratio: Array<number>
  cpu: Array<number>
  peak: Array<number>
  bytes: number
  roles: Record<Role, number>
}

const layouts: ReadonlyArray<Layout> = ["figures", "bullets", "comparison"]
const rows = new Map<string, Row>()
const row = (k: string): Row => {
  const existing = rows.get(k)
  if (existing !== undefined) return existing
  const roles = { orchestrator: 0, drawer: 0, ffmpeg: 0, other: 0 }
  const created: Row = { wall: [], ratio: [], cpu: [], peak: [], bytes: 0, roles }
  rows.set(k, created)
  return created
}
const keepPeaks = (x: Row, roles: Record<Role, number>) => {
  for (const k of Object.keys(roles) as Array<Role>) x.roles[k] = Math.max(x.roles[k], roles[k])
}

// Warm-up: builds the drawer bundle and fills the page cache.
await renderClip({ ...scene("figures"), frames: 30 }, { outputPath: join(dir, "warm.mp4") })

for (let r = 0; r < rounds; r++) {
  const enc = await measure(() => encodeOnly(join(dir, "encode.mp4")))
  const e = row("encode only (testsrc2)")
  e.wall.push(enc.wall)
  e.ratio.push(1)
  e.cpu.push(enc.cpu)
  e.peak.push(enc.peak)
  keepPeaks(e, enc.roles)
  for (const layout of layouts) {
    const m = await measure(() => renderClip(scene(layout), { outputPath: join(dir, `${layout}.mp4`) }))
    const x = row(`render ${layout}`)
    x.wall.push(m.wall)
    x.ratio.push(m.wall / enc.wall)
    x.cpu.push(m.cpu)
    x.peak.push(m.peak)
    keepPeaks(x, m.roles)
    x.bytes = m.result.byteSize
  }
  console.log(`round ${r + 1}/${rounds} done`)
}

// A batch as direct export draws it: 3 ratios × 2 locales (60 s of video), two renders at a time (RENDER_SLOTS=2).
const batchSizes = [{ width: 1080, height: 1920 }, { width: 1080, height: 1350 }, { width: 1080, height: 1080 }]
const batchJobs = batchSizes.flatMap((size) => ["en", "de"].map((locale) => ({ ...scene("figures"), ...size, locale })))
const batchStarted = performance.now()
const queue = [...batchJobs.entries()]
await Promise.all([0, 1].map(async () => {
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    await renderClip(next[1], { outputPath: join(dir, `batch-${next[0]}.mp4`) })
  }
}))
const batchWall = (performance.now() - batchStarted) / 1000

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? 0
}
const duration = FRAMES / FPS
const settings = defaultEncoder
const encoding = `${settings.codec} ${settings.preset} crf ${settings.crf} ${settings.x264Params ?? ""}`
console.log(`\n${W}x${H} @ ${FPS} fps, ${FRAMES} frames (${duration} s), ${encoding}`)
console.log(`ffmpeg: ${ffmpegPath()}; median of ${rounds} interleaved rounds`)
console.log("ratio = render wall / encode-only wall in the same round; RSS peaks sampled every 20 ms\n")
const head = [
  "what",
  "wall (s)",
  "x real time",
  "ratio to encode-only",
  "CPU drawer+ffmpeg (s)",
  "x real time if CPU-bound on 2 idle cores",
  "bytes",
  "peak RSS, all processes (MB)"
]
console.log(`| ${[...head, "peak RSS orchestrator / drawer / ffmpeg / other (MB)"].join(" | ")} |`)
console.log(`|${" --- |".repeat(head.length + 1)}`)
for (const [name, x] of rows) {
  const wall = median(x.wall)
  const bytes = x.bytes === 0 ? "–" : String(x.bytes)
  const mb = (v: number) => (v / 1e6).toFixed(0)
  const split = [x.roles.orchestrator, x.roles.drawer, x.roles.ffmpeg, x.roles.other].map(mb).join(" / ")
  const rtf = (duration / wall).toFixed(2)
  const cpu = median(x.cpu)
  const cpuRtf = (duration / (cpu / 2)).toFixed(2)
  const ratio = median(x.ratio).toFixed(2)
  const cells = [name, wall.toFixed(2), rtf, ratio, cpu.toFixed(2), cpuRtf, bytes, mb(Math.max(...x.peak)), split]
  console.log(`| ${cells.join(" | ")} |`)
}
console.log(
  `\nbatch of 3 ratios (9x16, 4x5, 1x1) × 2 locales, 10 s each, 2 at a time: ${batchWall.toFixed(2)} s (target ≤ 12 s)`
)
rmSync(dir, { recursive: true, force: true })
