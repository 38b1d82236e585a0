import { createCanvas, loadImage } from "@napi-rs/canvas"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Layout, SceneInput } from "../../src/drawing/Scene.js"

const made: Array<string> = []

export const tmp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "clipwright-render-"))
  made.push(dir)
  return dir
}

/** Removes every folder tmp() made; call from afterAll. */
export const cleanup = (): void => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/** Small output sizes with the shapes of the service's ratios (even sides, as yuv420p needs). */
export const smallSizes: Readonly<Record<string, { readonly width: number; readonly height: number }>> = {
  "9x16": { width: 180, height: 320 },
  "4x5": { width: 256, height: 320 },
  "1x1": { width: 240, height: 240 },
  "16x9": { width: 320, height: 180 },
  "2x3": { width: 214, height: 320 }
}

export const look: SceneInput["look"] = {
  background: ["#0f172a", "#1e1b4b"],
  accent: "#38bdf8",
  positive: "#22c55e",
  negative: "#ef4444",
  text: "#ffffff",
  mutedText: "#94a3b8",
  radius: 28
}

export const scene = (over: Partial<SceneInput> = {}, layout: Layout = "figures"): SceneInput => ({
  width: 180,
  height: 320,
  fps: 30,
  frames: 30,
  layout,
  look,
  locale: "en",
  safeArea: { top: 0, right: 0, bottom: 0, left: 0 },
  content: {
    headline: "Eurozone inflation cools for a third straight month",
    subline: "Core prices rose less than expected",
    figures: [
      { label: "Headline CPI", value: 2.4, unit: "%", direction: "down" },
      { label: "Core CPI", value: 3.61, unit: "%", direction: "up" },
      { label: "Jobs", value: 1250, direction: "flat" }
    ],
    bullets: ["Services slowed", "Energy fell again", "Food eased"],
    source: "Source: Eurostat"
  },
  ...over
})

/** RGBA pixels of a PNG, decoded with the canvas library. */
export const pixels = async (png: Buffer) => {
  const { createCanvas } = await import("@napi-rs/canvas")
  const img = await loadImage(png)
  const c = createCanvas(img.width, img.height)
  const ctx = c.getContext("2d")
  ctx.drawImage(img, 0, 0)
  return { width: img.width, height: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data }
}

/** Direct children of a process, from /proc (Linux). */
export const childPids = (ppid: number): Array<number> =>
  readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8")
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
        return Number(fields[1]) === ppid && fields[0] !== "Z" ? [Number(d)] : []
      } catch {
        return []
      }
    })

export const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"
  } catch {
    return false
  }
}

/** A 3:1 magenta logo PNG (90×30) in `dir`; magenta is easy to find in a drawn frame. */
export const writeLogo = (dir: string): string => {
  const canvas = createCanvas(90, 30)
  const ctx = canvas.getContext("2d")
  ctx.fillStyle = "#ff00ff"
  ctx.fillRect(0, 0, 90, 30)
  const file = join(dir, "logo.png")
  writeFileSync(file, canvas.toBuffer("image/png"))
  return file
}
