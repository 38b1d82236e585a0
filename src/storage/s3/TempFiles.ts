import { Effect } from "effect"
import * as crypto from "node:crypto"
import * as fsp from "node:fs/promises"
import * as path from "node:path"
import { removeQuietly, sweepOld } from "../Files.js"

/** A temporary file this old belongs to a process that crashed (uploads and renders take minutes, not a day). */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000
const TEMP_SUFFIX = /^(\.[A-Za-z0-9]{1,10})?$/

/** Scoped temporary files in a local folder (for a store that has no file system of its own). */
export const makeTempFiles = (dir: string, now: number) =>
  Effect.gen(function*() {
    yield* Effect.promise(() => fsp.mkdir(dir, { recursive: true }))
    yield* Effect.promise(() => sweepOld(dir, STALE_TEMP_MS, now))
    const tempPath = (suffix = "") =>
      TEMP_SUFFIX.test(suffix)
        ? Effect.acquireRelease(
          Effect.sync(() => path.join(dir, `${crypto.randomUUID()}${suffix}`)),
          (file) => Effect.promise(() => removeQuietly(file))
        )
        : Effect.dieMessage(`Invalid temporary file suffix ${JSON.stringify(suffix)}.`)
    /** A key's extension (`.mp4`, `.png`), so tools reading the copy infer its format as from the original. */
    const suffixOf = (key: string) => {
      const ext = path.posix.extname(key)
      return TEMP_SUFFIX.test(ext) ? ext : ""
    }
    return { tempPath, suffixOf }
  })
