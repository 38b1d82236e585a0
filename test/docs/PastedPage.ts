import { afterAll, beforeAll, expect, it } from "vitest"
import { type BlockResult, failure, shellBlocks, snippetShell } from "./Snippets.js"

/**
 * A page's shell blocks, pasted in order into one shell that starts before the file's tests and stops after them.
 * `itRunsEachBlock` registers one test per block where it is called; `printed` is what the blocks wrote to stdout.
 */
export const pastedPage = (page: string) => {
  const blocks = shellBlocks(page)
  const results: Array<BlockResult> = []
  let shell: Awaited<ReturnType<typeof snippetShell>>
  beforeAll(async () => {
    shell = await snippetShell()
  })
  afterAll(async () => {
    await shell.stop()
  })
  return {
    blocks,
    shell: () => shell,
    printed: () => results.map((r) => r.stdout).join("\n"),
    itRunsEachBlock: () =>
      it.each(blocks.map((block, i) => ({ ...block, i })))("the block at line $line works", async (block) => {
        const result = await shell.run(block)
        results[block.i] = result
        expect(failure(block, result) ?? "", shell.nodeLog().slice(-3000)).toBe("")
      }, 240_000)
  }
}
