import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

/**
 * `clipwright/client` and `clipwright/client/effect` as an integrator imports them: by the package's name, through
 * package.json "exports" into the built dist/ (made by the suite's global setup). A resolve hook refuses the modules
 * that only a node needs, so an import that reached the database driver, the cluster or the canvas would fail.
 */
const root = path.resolve(import.meta.dirname, "../..")
const serverOnly = String.raw`node_modules\/(pg|pg-[a-z]+|@effect\/(cluster|sql-pg|platform-node)|@napi-rs\/canvas)\/`
const hook = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  if (/${serverOnly}/.test(resolved.url)) throw new Error("server-only module " + resolved.url)
  return resolved
}`

const importing = (entry: string) =>
  spawnSync(process.execPath, [
    "--input-type=module",
    "-e",
    `import { register } from "node:module"
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}))
console.log(Object.keys(await import(${JSON.stringify(entry)})).sort().join(","))`
  ], { cwd: root, encoding: "utf8" })

describe("the package's client entries", () => {
  it.each([
    ["clipwright/client", "createClipwrightClient"],
    ["clipwright/client/effect", "effectClientOf,makeEffectClient"]
  ])("%s loads without a module only a node needs", (entry, exported) => {
    const run = importing(entry)
    expect(run.stderr).toBe("")
    expect(run.stdout.trim()).toBe(exported)
  })

  it("the hook does refuse what the node needs", () => {
    const run = importing("./dist/src/Server.js")
    expect(run.status).not.toBe(0)
    expect(run.stderr).toMatch(/server-only module/)
  })
})
