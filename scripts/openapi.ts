// Writes the OpenAPI document the node serves at /v1/openapi.json, without starting a node, and lints it with
// `redocly lint` (the recommended rules, `redocly.yaml`). `npm run lint:openapi`; `--out <file>` keeps the document.
// `OpenApi.fromApi` is what `HttpApiBuilder.middlewareOpenApi` calls, and it applies the `OpenApi.Transform` the
// root API carries (`documentEnvelope`), so this is the served document, not a copy of its construction.
import { OpenApi } from "@effect/platform"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ClipwrightApi } from "../src/Api.js"

const root = path.resolve(import.meta.dirname, "..")
const out = process.argv[process.argv.indexOf("--out") + 1]
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-openapi-"))
const file = process.argv.includes("--out") && out !== undefined ? path.resolve(out) : path.join(dir, "openapi.json")
const redocly = path.join(root, "node_modules/@redocly/cli/bin/cli.js")

try {
  fs.writeFileSync(file, JSON.stringify(OpenApi.fromApi(ClipwrightApi), null, 2) + "\n")
  const lint = spawnSync(
    process.execPath,
    [redocly, "lint", file, "--config", path.join(root, "redocly.yaml")],
    {
      stdio: "inherit",
      // No usage data and no update check: the lint needs nothing beyond the files here.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_NOTIFICATIONS: "true" }
    }
  )
  process.exitCode = lint.status ?? 1
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
