import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as fsp from "node:fs/promises"
import * as path from "node:path"
import { pipeline } from "node:stream/promises"

/** Small promise helpers over node:fs for the local blob store. */

export const isNotFound = (e: unknown): boolean =>
  typeof e === "object" && e !== null && "code" in e && (e.code === "ENOENT" || e.code === "ENOTDIR")

export const isCrossDevice = (e: unknown): boolean =>
  typeof e === "object" && e !== null && "code" in e && e.code === "EXDEV"

/** Writes all of `bytes` at the handle's position (a write may take fewer bytes than offered). */
export const writeFully = async (handle: fsp.FileHandle, bytes: Uint8Array): Promise<void> => {
  let offset = 0
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset)
    offset += bytesWritten
  }
}

export const hashFile = async (file: string): Promise<{ byteSize: number; sha256: string }> => {
  const hash = crypto.createHash("sha256")
  let byteSize = 0
  await pipeline(fs.createReadStream(file), async function*(source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      byteSize += chunk.length
      hash.update(chunk)
    }
  })
  return { byteSize, sha256: hash.digest("hex") }
}

/** Flushes a file's bytes to disk, so a rename after it can never expose a file whose data was lost in a crash. */
export const syncFile = async (file: string): Promise<void> => {
  const handle = await fsp.open(file, "r")
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Makes a rename durable; some platforms cannot open a directory, which only costs durability, so it is ignored. */
export const syncDir = async (dir: string): Promise<void> => {
  try {
    await syncFile(dir)
  } catch {
    // best effort
  }
}

export const removeQuietly = (file: string): Promise<void> => fsp.rm(file, { force: true }).catch(() => undefined)

/** Renames `from` onto `to` (creating its folder), replacing what was there in one step. */
export const renameInto = async (from: string, to: string): Promise<void> => {
  await fsp.mkdir(path.dirname(to), { recursive: true })
  await fsp.rename(from, to)
  await syncDir(path.dirname(to))
}

/** Removes temporary files older than `maxAgeMs` left by crashed writers (on any node sharing the folder). */
export const sweepOld = async (dir: string, maxAgeMs: number, now: number): Promise<void> => {
  const names = await fsp.readdir(dir).catch(() => [] as Array<string>)
  for (const name of names) {
    const file = path.join(dir, name)
    const stat = await fsp.stat(file).catch(() => undefined)
    if (stat !== undefined && stat.isFile() && now - stat.mtimeMs > maxAgeMs) await removeQuietly(file)
  }
}

/** Keys (paths relative to `root`, `/`-separated) of the files under `folder` last modified before `before`. */
export const filesWrittenBefore = async (root: string, folder: string, before: number): Promise<Array<string>> => {
  const entries = await fsp.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => [])
  const keys: Array<string> = []
  for (const entry of entries) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    const stat = await fsp.stat(file).catch(() => undefined)
    if (stat !== undefined && stat.mtimeMs < before) keys.push(path.relative(root, file).split(path.sep).join("/"))
  }
  return keys
}
