import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { ffmpegPath } from "../../src/drawing/Ffmpeg.js"

/** The rule docs/operating.md states: FFMPEG_PATH when set, else the build `npm ci` installed; never PATH's. */
const installed = (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path
const saved = { FFMPEG_PATH: process.env["FFMPEG_PATH"], PATH: process.env["PATH"] }

const restore = (name: "FFMPEG_PATH" | "PATH") => {
  const value = saved[name]
  if (value === undefined) delete process.env[name]
  else process.env[name] = value
}

afterEach(() => {
  restore("FFMPEG_PATH")
  restore("PATH")
})

describe("which ffmpeg renders encode with", () => {
  it("is the one npm ci installed, even with another ffmpeg first on PATH", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-path-ffmpeg-"))
    const impostor = path.join(dir, "ffmpeg")
    fs.writeFileSync(impostor, "#!/bin/sh\necho impostor\nexit 1\n", { mode: 0o755 })
    delete process.env["FFMPEG_PATH"]
    process.env["PATH"] = `${dir}${path.delimiter}${saved.PATH ?? ""}`
    expect(ffmpegPath()).toBe(installed)
    const version = spawnSync(ffmpegPath(), ["-hide_banner", "-version"], { encoding: "utf8" })
    expect(version.status).toBe(0)
    expect(version.stdout).toMatch(/^ffmpeg version/)
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it("is FFMPEG_PATH when it is set", () => {
    process.env["FFMPEG_PATH"] = "/opt/ffmpeg/bin/ffmpeg"
    expect(ffmpegPath()).toBe("/opt/ffmpeg/bin/ffmpeg")
  })

  it("is the installed one when FFMPEG_PATH is empty", () => {
    process.env["FFMPEG_PATH"] = ""
    expect(ffmpegPath()).toBe(installed)
  })
})
