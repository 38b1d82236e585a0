import * as fs from "node:fs"
import type { SeenStore } from "./Verify.js"

/**
 * Processed delivery ids kept in a file (one `id seconds` line each), so that they outlive a restart: what a receiver
 * that accepts redeliveries (`redeliveryWindowSeconds`) needs. Ids are forgotten `keepSeconds` after they were
 * processed; keep them longer than the redelivery window and the sender's retry horizon (the default schedule
 * retries for about 28 hours). Writes are synchronous appends; the file is rewritten without forgotten ids on start
 * and whenever it holds twice as many lines as ids kept.
 */
export class SeenFile implements SeenStore {
  private readonly ids = new Map<string, number>()
  private lines = 0

  constructor(
    private readonly path: string,
    private readonly keepSeconds = 30 * 86_400,
    private readonly now: () => number = Date.now
  ) {
    const text = fs.existsSync(path) ? fs.readFileSync(path, "utf8") : ""
    for (const line of text.split("\n")) {
      const [id, at] = line.split(" ")
      if (id !== undefined && id !== "" && Number.isFinite(Number(at))) this.ids.set(id, Number(at))
    }
    this.compact()
  }

  has(id: string) {
    const at = this.ids.get(id)
    return at !== undefined && !this.expired(at)
  }

  add(id: string) {
    const at = Math.floor(this.now() / 1000)
    fs.appendFileSync(this.path, `${id} ${at}\n`)
    this.ids.set(id, at)
    if (++this.lines > Math.max(1000, 2 * this.ids.size)) this.compact()
  }

  private expired(at: number) {
    return at < this.now() / 1000 - this.keepSeconds
  }

  /** Rewrites the file with the ids still kept; a rename, so a crash leaves the old file or the new one. */
  private compact() {
    for (const [id, at] of this.ids) if (this.expired(at)) this.ids.delete(id)
    const fresh = `${this.path}.${process.pid}.tmp`
    fs.writeFileSync(fresh, [...this.ids].map(([id, at]) => `${id} ${at}\n`).join(""))
    fs.renameSync(fresh, this.path)
    this.lines = this.ids.size
  }
}
