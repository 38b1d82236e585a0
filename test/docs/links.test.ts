import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { root } from "./Snippets.js"

/**
 * Every relative link of the README, CONTRIBUTING.md and docs/ leads to a file of the repository, and a link with a
 * `#fragment` to a heading of that page.
 */
const pages = [
  "README.md",
  "CONTRIBUTING.md",
  ...fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)
]

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading.toLowerCase().replace(/`/g, "").replace(/[^\p{L}\p{N}\- _]/gu, "").replace(/ /g, "-")

const known = new Map<string, Set<string>>()
const anchors = (file: string): Set<string> => known.get(file) ?? headings(file)

const headings = (file: string): Set<string> => {
  const text = fs.readFileSync(path.join(root, file), "utf8").replace(/```[\s\S]*?```/g, "")
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const match of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(match[1]!.trim())
    const n = seen.get(base) ?? 0
    out.add(n === 0 ? base : `${base}-${n}`)
    seen.set(base, n + 1)
  }
  known.set(file, out)
  return out
}

const links = (page: string) => {
  const text = fs.readFileSync(path.join(root, page), "utf8").replace(/```[\s\S]*?```/g, "")
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l))
}

describe("relative links", () => {
  it.each(pages)("in %s lead somewhere", (page) => {
    const broken = links(page).filter((link) => {
      const [file, fragment] = link.split("#")
      const target = file === "" ? page : path.normalize(path.join(path.dirname(page), file!))
      if (!fs.existsSync(path.join(root, target))) return true
      return fragment !== undefined && target.endsWith(".md") && !anchors(target).has(fragment)
    })
    expect(broken).toEqual([])
  })
})
