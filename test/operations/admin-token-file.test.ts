import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { tokenFile } from "../../src/http/AdminToken.js"

describe("DATA_DIR/admin-token", () => {
  it.effect("first starts racing on one DATA_DIR agree on one token, and the file holds it whole", () =>
    Effect.gen(function*() {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-token-"))
      const starts = yield* Effect.all(Array.from({ length: 16 }, () => tokenFile(dataDir)), {
        concurrency: "unbounded"
      })
      const onDisk = fs.readFileSync(path.join(dataDir, "admin-token"), "utf8")
      expect(new Set(starts.map((s) => s.token))).toEqual(new Set([onDisk.trim()]))
      expect(onDisk.trim().length).toBeGreaterThanOrEqual(24)
      expect(starts.filter((s) => s.drawn).length).toBe(1)
      // Nothing left aside.
      expect(fs.readdirSync(dataDir)).toEqual(["admin-token"])
      const again = yield* tokenFile(dataDir)
      expect(again).toMatchObject({ token: onDisk.trim(), drawn: false })
      fs.rmSync(dataDir, { recursive: true, force: true })
    }))
})
