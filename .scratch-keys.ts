import { createCanvas } from "@napi-rs/canvas"
import { writeFileSync, mkdirSync } from "node:fs"
import { renderKeyframe } from "./src/render/Render.js"
import { ratioSizes } from "./src/render/Scene.js"
import type { SceneInput } from "./src/render/Scene.js"
mkdirSync("/tmp/scratch/keys", { recursive: true })
const pic = (i: number, a: string, b: string) => {
  const c = createCanvas(800, 600); const x = c.getContext("2d")
  const g = x.createLinearGradient(0, 0, 800, 600); g.addColorStop(0, a); g.addColorStop(1, b); x.fillStyle = g; x.fillRect(0, 0, 800, 600)
  x.fillStyle = "rgba(255,255,255,0.8)"; x.beginPath(); x.arc(400, 300, 150, 0, 7); x.fill()
  const p = `/tmp/scratch/pic${i}.png`; writeFileSync(p, c.toBuffer("image/png")); return p
}
const images = [pic(0, "#f97316", "#7c2d12"), pic(1, "#06b6d4", "#1e3a8a"), pic(2, "#a3e635", "#166534")]
const look = { background: ["#0f172a", "#1e1b4b"] as [string, string], accent: "#38bdf8", positive: "#22c55e", negative: "#ef4444", text: "#f8fafc", mutedText: "#94a3b8", radius: 28 }
const figures = [{ label: "Headline CPI", value: 2.4, unit: "%", direction: "down" as const }, { label: "Core CPI", value: 3.61, unit: "%", direction: "down" as const }, { label: "Unemployment", value: 6.5, unit: "%", direction: "flat" as const }, { label: "GDP growth, year on year", value: 0.1, unit: "%", direction: "up" as const }]
const bullets = ["Prices in services rose 3.9%, the slowest pace since spring", "Energy costs fell for the fourth month in a row", "Food inflation eased to 2.7%", "Markets now price two rate cuts by June", "Germany and France both undershot forecasts"]
const base = (ratio: string, layout: SceneInput["layout"], extra: Partial<SceneInput["content"]> = {}): SceneInput => ({
  ...ratioSizes[ratio]!, fps: 30, frames: 300, layout, look, locale: "en", safeArea: { top: 0, right: 0, bottom: 0, left: 0 }, brand: { name: "Clipwright News" },
  content: { headline: "Eurozone inflation cools for a third straight month", subline: "Core prices rose less than economists expected, giving the ECB room to pause", figures, bullets, source: "Source: Eurostat flash estimate, November 2024", ...extra }
})
const which = process.argv.slice(2)
const jobs: Array<[string, SceneInput, number]> = []
for (const ratio of Object.keys(ratioSizes)) for (const layout of ["figures", "bullets", "comparison"] as const) {
  jobs.push([`${ratio}-${layout}`, base(ratio, layout), 299])
  jobs.push([`${ratio}-${layout}-img`, base(ratio, layout, { images: images.slice(0, layout === "bullets" ? 1 : layout === "figures" ? 3 : 2).map((path) => ({ path, alt: "" })) }), 299])
}
jobs.push(["9x16-figures-mid", base("9x16", "figures"), 12])
jobs.push(["9x16-ja", { ...base("9x16", "figures"), locale: "ja", content: { headline: "日本の消費者物価、3カ月連続で伸びが鈍化", subline: "コア指数は市場予想を下回り、日銀の政策判断に注目が集まる", figures: [{ label: "消費者物価指数", value: 2.8, unit: "%", direction: "down" }, { label: "失業率", value: 2.5, unit: "%", direction: "flat" }, { label: "実質GDP成長率（前年比）", value: 1.2, unit: "%", direction: "up" }], source: "出典：総務省統計局" } }, 299])
jobs.push(["16x9-ru", { ...base("16x9", "comparison"), locale: "ru", content: { headline: "Инфляция в еврозоне замедлилась третий месяц подряд", figures, source: "Источник: Евростат" } }, 299])
for (const [name, scene, frame] of jobs) {
  if (which.length > 0 && !which.some((w) => name.includes(w))) continue
  writeFileSync(`/tmp/scratch/keys/${name}.png`, await renderKeyframe(scene, frame))
}
console.log("done")
