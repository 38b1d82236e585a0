import { PGlite } from "@electric-sql/pglite"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"

const PACKAGE = path.join("node_modules", "@electric-sql", "pglite")

/**
 * Where the install leaves a freshly initialised PGlite data directory. Named by the installed PGlite version, since
 * an upgrade must never open another version's files; under node_modules/.cache, so git-ignored and replaced by the
 * next `npm ci`. Undefined when PGlite is not installed under a node_modules folder.
 */
export const templateDir = (): string | undefined => {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite")
  const at = entry.lastIndexOf(PACKAGE + path.sep)
  if (at === -1) return undefined
  const manifest = path.join(entry.slice(0, at + PACKAGE.length), "package.json")
  const { version } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }
  return path.join(entry.slice(0, at), "node_modules", ".cache", "clipwright", `pglite-${version}`)
}

/** Runs initdb once into `dir`, replacing the templates of other PGlite versions. */
export const writeTemplate = async (dir: string): Promise<void> => {
  const parent = path.dirname(dir)
  // Made under another name and renamed when complete: a start sees either no template or a whole one.
  const partial = path.join(parent, `partial-${process.pid}`)
  fs.rmSync(partial, { recursive: true, force: true })
  fs.mkdirSync(partial, { recursive: true })
  const db = await PGlite.create({ dataDir: partial })
  await db.close()
  for (const old of fs.readdirSync(parent)) {
    if (old.startsWith("pglite-")) fs.rmSync(path.join(parent, old), { recursive: true, force: true })
  }
  fs.renameSync(partial, dir)
}
