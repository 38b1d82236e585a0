import { Linter } from "eslint"
import * as path from "node:path"
import tseslint from "typescript-eslint"
import { describe, expect, it } from "vitest"
import tagId from "../../eslint/tag-id.js"

const root = path.resolve("src")

/** Lints `code` as if it were the file at `file` (relative to src/) and also returns the --fix output. */
const lint = (file: string, code: string) => {
  const linter = new Linter({ configType: "flat" })
  const config = [{
    files: ["**/*.ts"],
    languageOptions: { parser: tseslint.parser as any },
    plugins: { arch: { rules: { "tag-id": tagId } } },
    rules: { "arch/tag-id": ["error", { root }] as any }
  }]
  const filename = path.join(root, file)
  const messages = linter.verify(code, config, filename)
  const fixed = linter.verifyAndFix(code, config, filename).output
  return { messages: messages.map((m) => m.message), fixed }
}

const service = (id: string) =>
  `import { Context } from "effect"\nexport class Jobs extends Context.Tag(${JSON.stringify(id)})<Jobs, {}>() {}\n`

describe("arch/tag-id: a service id names its folder and class", () => {
  it("accepts clipwright/<folder>/<class>", () => {
    expect(lint("publishing/views/Jobs.ts", service("clipwright/publishing/views/Jobs")).messages).toEqual([])
  })

  it("reports an id left behind by a move, and --fix writes the right one", () => {
    const { fixed, messages } = lint("publishing/views/Jobs.ts", service("clipwright/jobs/Jobs"))
    expect(messages).toEqual([
      "Context.Tag id should be \"clipwright/publishing/views/Jobs\" (clipwright/<folder>/<class>), not \"clipwright/jobs/Jobs\"."
    ])
    expect(fixed).toContain("Context.Tag(\"clipwright/publishing/views/Jobs\")")
  })

  it("takes the class name, not the file's, and leaves other calls alone", () => {
    const code = `import { Context, Schema } from "effect"\n` +
      `export class SigningClock extends Context.Tag("clipwright/delivery/handover/SigningClock")<SigningClock, {}>() {}\n` +
      `export class Missing extends Schema.TaggedError<Missing>()("Missing", {}) {}\n` +
      `const tag = Context.Tag("anything")\n`
    expect(lint("delivery/handover/WebhookSigning.ts", code).messages).toEqual([])
  })

  it("at the root of src the id is clipwright/<class>", () => {
    const code =
      `import { Context } from "effect"\nexport class AppConfig extends Context.Tag("clipwright/Config")<AppConfig, {}>() {}\n`
    expect(lint("Config.ts", code).messages).toEqual([
      "Context.Tag id should be \"clipwright/AppConfig\" (clipwright/<folder>/<class>), not \"clipwright/Config\"."
    ])
  })
})
