import { PGlite } from "@electric-sql/pglite"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import * as zlib from "node:zlib"

const PACKAGE = path.join("node_modules", "@electric-sql", "pglite")

/**
 * Where the install leaves a freshly initialised PGlite data directory, named by the installed PGlite version (an
 * upgrade must never load another version's files). Under node_modules/.cache: git-ignored, gone with the next
 * `npm ci`, which makes a new one. Undefined when PGlite is not installed under a node_modules folder.
 */
export const templateFile = (): string | undefined => {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite")
  const at = entry.lastIndexOf(PACKAGE + path.sep)
  if (at === -1) return undefined
  const manifest = path.join(entry.slice(0, at + PACKAGE.length), "package.json")
  const { version } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }
  return path.join(entry.slice(0, at), "node_modules", ".cache", "clipwright", `pglite-${version}.tar.gz`)
}

/** Runs initdb once, in memory, and stores the data directory as the template (replacing other versions' ones). */
export const writeTemplate = async (file: string): Promise<void> => {
  const db = await PGlite.create()
  let tar: Buffer
  try {
    // A clean shutdown state, so a database made from the template needs no WAL recovery on its first start.
    await db.exec("CHECKPOINT")
    tar = Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer())
  } finally {
    await db.close()
  }
  const dir = path.dirname(file)
  fs.mkdirSync(dir, { recursive: true })
  for (const old of fs.readdirSync(dir)) {
    if (old.startsWith("pglite-")) fs.rmSync(path.join(dir, old), { force: true })
  }
  // Written whole, then renamed: a reader sees either no template or a complete one.
  const partial = `${file}.${process.pid}.partial`
  fs.writeFileSync(partial, zlib.gzipSync(tar))
  fs.renameSync(partial, file)
}

/** The template as PGlite's `loadDataDir` takes it; gunzip checks its CRC, so a damaged file throws here. */
export const readTemplate = async (file: string): Promise<Blob> => {
  const tar = await new Promise<Buffer>((resolve, reject) =>
    zlib.gunzip(fs.readFileSync(file), (error, result) => (error ? reject(error) : resolve(result)))
  )
  return new Blob([tar], { type: "application/x-tar" })
}
