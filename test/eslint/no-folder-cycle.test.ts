import { ESLint } from "eslint"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import tseslint from "typescript-eslint"
import { afterEach, describe, expect, it } from "vitest"
import noFolderCycle from "../../eslint/no-folder-cycle.js"

const made: Array<string> = []

/** A tiny project on disk: a tsconfig and the given files under it. */
const project = (files: Record<string, string>) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-folder-cycle-"))
  made.push(dir)
  const tsconfig = {
    compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true },
    include: ["src"]
  }
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig))
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }))
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}

/** The rule's reports, as `file:line route`, sorted. */
const lint = async (dir: string) => {
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [{
      files: ["**/*.ts"],
      languageOptions: { parser: tseslint.parser as any },
      plugins: { arch: { rules: { "no-folder-cycle": noFolderCycle } } },
      rules: { "arch/no-folder-cycle": ["error", { tsconfig: path.join(dir, "tsconfig.json"), roots: ["src"] }] }
    }]
  })
  const results = await eslint.lintFiles(["src/**/*.ts"])
  return results.flatMap((r) =>
    r.messages.map((m) => {
      expect(m.ruleId, m.message).toBe("arch/no-folder-cycle")
      const route = /circle between folders: (.*?)\. Move/.exec(m.message)?.[1]
      return `${path.relative(dir, r.filePath).split(path.sep).join("/")}:${m.line} ${route}`
    })
  ).sort()
}

afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

describe("arch/no-folder-cycle", () => {
  it("reports both imports of two folders that import each other with no file cycle, a type import counted", async () => {
    const dir = project({
      "src/a/A.ts": `import { b } from "../b/B.js"\nexport const a = b + 1\n`,
      "src/a/Shape.ts": `export interface Shape { readonly side: number }\n`,
      "src/b/B.ts":
        `import type { Shape } from "../a/Shape.js"\nexport const b = 1\nexport const square = (s: Shape) => s.side ** 2\n`
    })
    expect(await lint(dir)).toEqual([
      "src/a/A.ts:1 src/a → src/b → src/a",
      "src/b/B.ts:1 src/b → src/a → src/b"
    ])
  })

  it("counts a subfolder as a folder of its own, and export-from as an import", async () => {
    const dir = project({
      "src/t/Registry.ts": `export * from "./shipped/One.js"\n`,
      "src/t/Format.ts": `export type Format = { readonly name: string }\n`,
      "src/t/shipped/One.ts": `import type { Format } from "../Format.js"\nexport const one: Format = { name: "one" }\n`
    })
    expect(await lint(dir)).toEqual([
      "src/t/Registry.ts:1 src/t → src/t/shipped → src/t",
      "src/t/shipped/One.ts:1 src/t/shipped → src/t → src/t/shipped"
    ])
  })

  it("accepts folders that import one way, and files at the root importing and imported by every folder", async () => {
    const dir = project({
      "src/Root.ts": `import { a } from "./a/A.js"\nexport const root = a\n`,
      "src/a/A.ts": `import { b } from "../b/B.js"\nexport const a = b\n`,
      "src/a/FromRoot.ts": `import { root } from "../Root.js"\nexport const again = root\n`,
      "src/b/B.ts": `import { shared } from "../b/shared/Shared.js"\nexport const b = shared\n`,
      "src/b/shared/Shared.ts": `export const shared = 1\n`
    })
    expect(await lint(dir)).toEqual([])
  })

  it("reports a circle through three folders at each of its imports", async () => {
    const dir = project({
      "src/x/X.ts": `import { y } from "../y/Y.js"\nexport const x = y\n`,
      "src/y/Y.ts": `import { z } from "../z/Z.js"\nexport const y = z\n`,
      "src/z/Z.ts": `export const z = 1\nexport const later = () => import("../x/Late.js")\n`,
      "src/x/Late.ts": `export const late = 2\n`
    })
    expect(await lint(dir)).toEqual([
      "src/x/X.ts:1 src/x → src/y → src/z → src/x",
      "src/y/Y.ts:1 src/y → src/z → src/x → src/y",
      "src/z/Z.ts:2 src/z → src/x → src/y → src/z"
    ])
  })
})
