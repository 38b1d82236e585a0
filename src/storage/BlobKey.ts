import { Effect } from "effect"
import * as path from "node:path"
import { InvalidBlobKey } from "./Errors.js"

/** A segment never starts with a dot, so `.`, `..` and the store's own `.tmp` folder cannot be named. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._@+=-]{0,254}$/

export const isValidKey = (key: string): boolean =>
  key.length > 0 && key.length <= 1024 && key.split("/").every((segment) => SEGMENT.test(segment))

/** The absolute path of `key` under `root`; an absolute key, `..`, empty segments or odd characters are a defect. */
export const resolveKey = (root: string, key: string): Effect.Effect<string> =>
  Effect.suspend(() => {
    if (!isValidKey(key)) return Effect.die(new InvalidBlobKey({ key }))
    const full = path.join(root, ...key.split("/"))
    const rel = path.relative(root, full)
    return rel.startsWith("..") || path.isAbsolute(rel) ? Effect.die(new InvalidBlobKey({ key })) : Effect.succeed(full)
  })
