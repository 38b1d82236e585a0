import { execFileSync } from "node:child_process"
import * as path from "node:path"
import { makeTemplate } from "./RigTemplate.js"

/**
 * Vitest's global setup: builds dist/ (incrementally: a few seconds when it is up to date) before any file runs,
 * so the nodes the tests start compiled (test/support/Node.ts) run the code as it is now, never a stale build; and
 * makes the run's migrated template database, dropped after the run.
 */
export default async function setup() {
  if (process.env["TEST_NODES_FROM_SOURCES"] !== "true") {
    const root = path.resolve(import.meta.dirname, "../..")
    execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.build.json"], {
      cwd: root,
      stdio: "inherit"
    })
  }
  return await makeTemplate()
}
