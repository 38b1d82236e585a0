import { simpleParser } from "mailparser"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readMp4Info } from "../../src/drawing/Mp4Info.js"
import { freePort } from "../support/Node.js"

/**
 * `npm run example` as a newcomer runs it, into a fresh OUT_DIR on free ports (its own defaults are 8080 and 8787),
 * on the embedded database. It runs the package's script as is but not `preexample` (the build the suite's global
 * setup has just made). What it prints, the files it leaves and that nothing of it runs afterwards are checked.
 */
const root = path.resolve(import.meta.dirname, "../..")
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-example-"))
let port = 0
let receiverPort = 0
let run: { readonly code: number | null; readonly stdout: string; readonly stderr: string; readonly seconds: number }

/** Processes (other than this one) whose command line or environment names the example's folder. */
const leftovers = () =>
  fs.readdirSync("/proc").filter((pid) => /^\d+$/.test(pid) && Number(pid) !== process.pid).filter((pid) => {
    const read = (file: string) => {
      try {
        return fs.readFileSync(`/proc/${pid}/${file}`, "latin1")
      } catch {
        return ""
      }
    }
    return read("cmdline").includes(outDir) || read("environ").includes(outDir)
  }).map(Number)

beforeAll(async () => {
  port = await freePort()
  receiverPort = await freePort()
  const env: Record<string, string> = {
    ...process.env as Record<string, string>,
    OUT_DIR: outDir,
    PORT: String(port),
    RECEIVER_PORT: String(receiverPort)
  }
  delete env["DATABASE_URL"]
  const began = Date.now()
  const child = spawn("npm", ["run", "example", "--ignore-scripts", "--silent"], { cwd: root, env, stdio: "pipe" })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (d) => (stdout += d))
  child.stderr.on("data", (d) => (stderr += d))
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve))
  run = { code, stdout, stderr, seconds: (Date.now() - began) / 1000 }
}, 360_000)

afterAll(() => {
  // Should the example have left anything running, it goes now, so no other test meets it.
  for (const pid of leftovers()) process.kill(pid, "SIGKILL")
  fs.rmSync(outDir, { recursive: true, force: true })
})

const printed = () => `${run.stdout}\n${run.stderr}`

describe("npm run example", () => {
  it("runs to its end", () => {
    expect(run.code, printed()).toBe(0)
    expect(run.stdout).toMatch(/Done in \d+ s\. What arrived:/)
  })

  it("shows the event's render progressing to the approval", () => {
    expect(run.stdout).toMatch(/event sent: accepted, job \S+ for Shorts/)
    expect(run.stdout).toMatch(/^ {5}(AWAITING_RENDERING|RENDERING|DOWNLOADING) \(/m)
    expect(run.stdout).toMatch(/^ {5}AWAITING_APPROVAL \(/m)
    expect(run.stdout).toMatch(/approved post \S+/)
  })

  it("prints the webhook the receiver verified, and the hand-over email's .eml", async () => {
    const postId = /approved post (\S+)/.exec(run.stdout)?.[1]
    expect(run.stdout).toContain(
      `the receiver got: post.publish ${postId} channel=Shorts platform=youtube title="Gold climbs to a record"`
    )
    const eml = /the email hand-over: (\S+\.eml)/.exec(run.stdout)?.[1] ?? ""
    expect(path.isAbsolute(eml) ? eml : "").toContain(path.join(outDir, "data", "outbox"))
    const email = await simpleParser(fs.readFileSync(eml))
    const to = Array.isArray(email.to) ? email.to : [email.to]
    expect(to.map((a) => a?.text).join(", ")).toContain("ops@acme.example")
    expect(email.text).toContain("Gold climbs to a record")
  })

  it("fires the post list's post and hands it over to Reels", () => {
    expect(run.stdout).toMatch(/post list Morning: post \S+ scheduled for \S+/)
    expect(run.stdout).toMatch(/fired at \d{4}-\d\d-\d\dT/)
    expect(run.stdout).toMatch(/published 1/)
    expect(run.stdout).toMatch(/the receiver got: post\.publish \S+ channel=Reels platform=instagram title=/)
  })

  it("saves the direct export as a playable MP4", async () => {
    const clip = path.join(outDir, "clip.mp4")
    expect(run.stdout).toContain(`saved ${clip}`)
    const info = await readMp4Info(clip)
    expect(info.durationMs).toBeGreaterThan(1000)
    expect(info.video?.codec).toBe("avc1")
    expect(info.video!.height! / info.video!.width!).toBeCloseTo(16 / 9, 1)
  })

  it("prints the console's address and a sign-in link for the owner", () => {
    expect(run.stdout).toContain(`http://localhost:${port}/console, where ops@acme.example`)
    expect(run.stdout).toMatch(new RegExp(`^ {3}http://localhost:${port}/console/sign-in/[\\w-]{43}$`, "m"))
  })

  it("stops everything it started", async () => {
    expect(run.stdout).toMatch(/Stopped the receiver and the node \(\d+ s in all\)/)
    expect(leftovers()).toEqual([])
    for (const p of [port, receiverPort]) {
      expect(await fetch(`http://127.0.0.1:${p}/health`).then(() => "answered", () => "refused")).toBe("refused")
    }
  })
})
