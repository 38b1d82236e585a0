import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { root } from "./Snippets.js"

/**
 * Every environment variable the code reads is documented in docs/operating.md: a setting added without a line
 * there fails here. Read are `process.env.X`, `process.env["X"]`, `env["X"]` (the CLI) and Effect's `Config.*("X")`.
 */
const folders = ["src", "cluster", "bin"]
const reads =
  /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*"([A-Z][A-Z0-9_]*)"\s*\])|\benv\[\s*"([A-Z][A-Z0-9_]*)"\s*\]|Config\.\w+\(\s*"([A-Z][A-Z0-9_]*)"|nonEmpty\(\s*"([A-Z][A-Z0-9_]*)"/g
// The shell's own variable, read to find programs; not a setting of ours.
const notSettings = new Set(["PATH", "HOME"])

const sources = (dir: string): Array<string> =>
  fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return sources(file)
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [file] : []
  })

const settings = new Set(
  folders.flatMap(sources).flatMap((file) =>
    [...fs.readFileSync(path.join(root, file), "utf8").matchAll(reads)].map((m) => m.slice(1).find(Boolean)!)
  ).filter((name) => !notSettings.has(name))
)

describe("docs/operating.md", () => {
  const page = fs.readFileSync(path.join(root, "docs/operating.md"), "utf8")

  it("finds the settings the code reads", () => {
    for (const name of ["PORT", "DATABASE_URL", "FFMPEG_PATH", "STORAGE_URL", "RENDER_TIMEOUT_SECONDS"]) {
      expect(settings).toContain(name)
    }
  })

  it.each([...settings].sort())("documents %s", (name) => {
    expect(page).toContain(`\`${name}\``)
  })

  it("documents the typecheck script", () => {
    expect(page).toContain("`npm run typecheck`")
  })
})

describe("docs/performance.md", () => {
  const page = fs.readFileSync(path.join(root, "docs/performance.md"), "utf8")
  const scripts = Object.keys(
    (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> })
      .scripts
  ).filter((name) => name.startsWith("bench"))

  it.each(scripts)("says what npm run %s measures", (name) => {
    expect(page).toContain(`npm run ${name}`)
  })
})
