import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * The docs name the repository's files so a reader can open them; a move or a rename must take the docs along. Every
 * path they name under one of the repository's folders must exist, and every bare file name (`Streams.ts`, named in
 * a walk through one folder) must be some file's name.
 */
const root = fileURLToPath(new URL("../../", import.meta.url))
const docs = [
  "README.md",
  "CONTRIBUTING.md",
  ...fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)
]
const folders = ["src", "test", "docs", "bench", "cluster", "migrations", "scripts", "eslint", "bin", "examples"]

// A path under one of our folders, not inside a longer path or address (`dist/src/…`, `https://…/src/…`).
const pathPattern = new RegExp(`(?<![\\w./@-])((?:${folders.join("|")})/[\\w./-]*[\\w/])(?![\\w<*{$])`, "g")
// A file name with no folder, quoted as code, as in "`ExportHttp.ts` → `Exports.ts`" (not a role like `*Repo.ts`).
const namePattern = /`([A-Za-z][\w-]*\.(?:ts|mjs|js))`/g

const skip = new Set(["node_modules", "dist", "data", ".git", "coverage"])
const names = new Set<string>()
const walk = (dir: string): void => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue
    if (entry.isDirectory()) walk(path.join(dir, entry.name))
    else names.add(entry.name)
  }
}
walk(root)

const named = (doc: string, pattern: RegExp) => {
  const text = fs.readFileSync(path.join(root, doc), "utf8")
  return [...new Set([...text.matchAll(pattern)].map((m) => m[1]!))]
}

describe("paths named in the docs", () => {
  it("finds the README and the docs folder's pages", () => {
    expect(docs).toContain("README.md")
    expect(docs).toContain("docs/architecture.md")
  })

  it.each(docs)("every repository path in %s exists", (doc) => {
    const paths = named(doc, pathPattern)
    expect(paths.length).toBeGreaterThan(0)
    expect(paths.filter((p) => !fs.existsSync(path.join(root, p)))).toEqual([])
  })

  it.each(docs)("every bare file name in %s is a file of the repository", (doc) => {
    expect(named(doc, namePattern).filter((name) => !names.has(name))).toEqual([])
  })
})
