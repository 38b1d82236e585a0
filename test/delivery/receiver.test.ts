import { spawn } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningReceiver, startReceiver } from "../../src/delivery/receiver/Receiver.js"
import { SeenFile } from "../../src/delivery/receiver/SeenFile.js"
import { RecentIds, verifyWebhook } from "../../src/delivery/receiver/Verify.js"

const root = path.resolve(import.meta.dirname, "../..")
const newSecret = () => `whsec_${crypto.randomBytes(24).toString("base64")}`
const secret = newSecret()
let sequence = 0
const deliveryId = () => `01JRECEIVERTEST${String(++sequence).padStart(11, "0")}`

const publishBody = JSON.stringify({
  type: "post.publish",
  timestamp: "2026-11-23T12:00:00.000Z",
  data: {
    posts: [
      { id: "post_1", channel: { name: "Match days", platform: "TIKTOK" }, title: "Late winner" },
      { id: "post_2", channelId: "ch_2", platform: "YOUTUBE", title: "Highlights" }
    ]
  }
})

/** The headers a clipwright node sends (CONTRACT.md "Webhook wire format"), signed `ageSeconds` ago. */
const sign = (body: string, options: { id?: string; ageSeconds?: number; key?: string } = {}) => {
  const id = options.id ?? deliveryId()
  const at = new Date(Date.now() - (options.ageSeconds ?? 0) * 1000)
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(options.key ?? secret).sign(id, at, body)
  }
}

describe("verifyWebhook", () => {
  it("accepts a signed delivery once and answers 409 replayed for the same webhook-id", () => {
    const seen = new RecentIds()
    const headers = sign(publishBody)
    const first = verifyWebhook(secret, headers, publishBody, { seen })
    expect(first).toMatchObject({ ok: true, id: headers["webhook-id"], event: { type: "post.publish" } })
    expect(verifyWebhook(secret, headers, Buffer.from(publishBody), { seen }))
      .toMatchObject({ ok: false, status: 409, code: "replayed" })
  })

  it("answers 401 timestamp_skew for a delivery signed 6 minutes ago, and takes a wider tolerance", () => {
    const headers = sign(publishBody, { ageSeconds: 360 })
    expect(verifyWebhook(secret, headers, publishBody, { seen: new RecentIds() }))
      .toMatchObject({ ok: false, status: 401, code: "timestamp_skew" })
    expect(verifyWebhook(secret, headers, publishBody, { seen: new RecentIds(), toleranceSeconds: 600 }))
      .toMatchObject({ ok: true })
  })

  it("answers 401 signature_invalid for a tampered body, another secret or missing headers", () => {
    const headers = sign(publishBody)
    const tampered = publishBody.replace("Late winner", "Early winner")
    const options = { seen: new RecentIds() }
    expect(verifyWebhook(secret, headers, tampered, options)).toMatchObject({ status: 401, code: "signature_invalid" })
    expect(verifyWebhook(newSecret(), headers, publishBody, options)).toMatchObject({
      status: 401,
      code: "signature_invalid"
    })
    const { "webhook-signature": _, ...unsigned } = headers
    expect(verifyWebhook(secret, unsigned, publishBody, options)).toMatchObject({
      status: 401,
      code: "signature_invalid"
    })
    // A rejected delivery is not remembered: the genuine one still goes through.
    expect(verifyWebhook(secret, headers, publishBody, options)).toMatchObject({ ok: true })
  })

  it("forgets the oldest ids beyond its capacity", () => {
    const seen = new RecentIds(2)
    for (const id of ["a", "b", "c"]) seen.add(id)
    expect([seen.has("a"), seen.has("b"), seen.has("c")]).toEqual([false, true, true])
  })
})

describe("accepting a redelivery of a message never processed", () => {
  const HOUR = 3600
  const window = { redeliveryWindowSeconds: 7 * 24 * HOUR }

  it("takes an old timestamp within the window for an unseen id once, then answers replayed", () => {
    const seen = new RecentIds()
    const headers = sign(publishBody, { ageSeconds: 2 * HOUR })
    expect(verifyWebhook(secret, headers, publishBody, { seen })).toMatchObject({ ok: false, code: "timestamp_skew" })
    expect(verifyWebhook(secret, headers, publishBody, { seen, ...window })).toMatchObject({ ok: true })
    expect(verifyWebhook(secret, headers, publishBody, { seen, ...window })).toMatchObject({
      status: 409,
      code: "replayed"
    })
  })

  it("still refuses a timestamp beyond the window, one in the future, and a bad signature", () => {
    const seen = new RecentIds()
    expect(verifyWebhook(secret, sign(publishBody, { ageSeconds: 8 * 24 * HOUR }), publishBody, { seen, ...window }))
      .toMatchObject({ status: 401, code: "timestamp_skew" })
    expect(verifyWebhook(secret, sign(publishBody, { ageSeconds: -HOUR }), publishBody, { seen, ...window }))
      .toMatchObject({ status: 401, code: "timestamp_skew" })
    expect(verifyWebhook(newSecret(), sign(publishBody, { ageSeconds: HOUR }), publishBody, { seen, ...window }))
      .toMatchObject({ status: 401, code: "signature_invalid" })
  })

  it("keeps processed ids in a file across restarts, and forgets them after their time", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "seen-")), "seen-ids")
    let now = Date.now()
    const first = new SeenFile(file, 2 * HOUR, () => now)
    first.add("a")
    first.add("b")
    const restarted = new SeenFile(file, 2 * HOUR, () => now)
    expect([restarted.has("a"), restarted.has("b"), restarted.has("c")]).toEqual([true, true, false])
    now += 3 * HOUR * 1000
    expect(restarted.has("a")).toBe(false)
    expect(new SeenFile(file, 2 * HOUR, () => now).has("b")).toBe(false)
    expect(fs.readFileSync(file, "utf8")).toBe("")
  })

  it("the reference receiver with a seen file takes a redelivery once, also after a restart", async () => {
    const seenFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "seen-")), "seen-ids")
    const options = { secret, port: 0, print: () => undefined, seenFile, redeliveryWindowSeconds: 7 * 24 * HOUR }
    const headers = sign(publishBody, { ageSeconds: 3 * HOUR })
    const first = await startReceiver(options)
    try {
      expect((await fetch(first.url, { method: "POST", headers, body: publishBody })).status).toBe(200)
    } finally {
      await first.close()
    }
    const second = await startReceiver(options)
    try {
      const again = await fetch(second.url, { method: "POST", headers, body: publishBody })
      expect(again.status).toBe(409)
      expect((await again.json() as any).error.code).toBe("replayed")
    } finally {
      await second.close()
    }
    await expect(startReceiver({ secret, port: 0, redeliveryWindowSeconds: HOUR })).rejects.toThrow(/seen-id file/)
  })
})

describe("the reference receiver over HTTP", () => {
  let receiver: RunningReceiver
  const printed: Array<string> = []

  beforeAll(async () => {
    receiver = await startReceiver({ secret, port: 0, print: (line) => printed.push(line) })
  })
  afterAll(() => receiver?.close())

  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${receiver.url}/hooks/clipwright`, { method: "POST", headers, body })

  it("prints each post and answers the receipt fields", async () => {
    const response = await post(publishBody, sign(publishBody))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      posts: [
        { id: "post_1", platformPostId: "receiver-post_1", permalink: "https://example.invalid/post_1" },
        { id: "post_2", platformPostId: "receiver-post_2", permalink: "https://example.invalid/post_2" }
      ]
    })
    expect(printed).toContain(`post.publish post_1 channel=Match days platform=TIKTOK title="Late winner"`)
    expect(printed).toContain(`post.publish post_2 channel=ch_2 platform=YOUTUBE title="Highlights"`)
  })

  it("accepts an event without posts and prints its type and delivery id", async () => {
    const body = JSON.stringify({
      type: "post.delete",
      timestamp: new Date().toISOString(),
      data: { postGroupId: "g1" }
    })
    const headers = sign(body)
    const response = await post(body, headers)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ posts: [] })
    expect(printed).toContain(`post.delete ${headers["webhook-id"]}`)
  })

  it("answers replayed, timestamp_skew and signature_invalid in the error envelope", async () => {
    const headers = sign(publishBody)
    expect((await post(publishBody, headers)).status).toBe(200)
    const cases = [
      { response: await post(publishBody, headers), status: 409, code: "replayed" },
      {
        response: await post(publishBody, sign(publishBody, { ageSeconds: 360 })),
        status: 401,
        code: "timestamp_skew"
      },
      { response: await post(`${publishBody} `, sign(publishBody)), status: 401, code: "signature_invalid" },
      {
        response: await post(publishBody, sign(publishBody, { key: newSecret() })),
        status: 401,
        code: "signature_invalid"
      }
    ]
    for (const { code, response, status } of cases) {
      expect(response.status).toBe(status)
      const { error } = await response.json() as any
      expect(error).toMatchObject({ type: `https://clipwright.dev/errors/${code}`, code, details: [] })
      expect(error.message).toEqual(expect.any(String))
      expect(error.requestId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
      expect(response.headers.get("x-request-id")).toBe(error.requestId)
    }
  })
})

describe("npx clipwright receiver", () => {
  const runCli = (args: ReadonlyArray<string>) =>
    spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"]
    })

  it("starts a receiver that verifies deliveries and prints them, and stops on SIGTERM", async () => {
    const child = runCli(["receiver", "--secret", secret, "--port", "0"])
    let stdout = ""
    let stderr = ""
    child.stderr.on("data", (chunk) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        stdout += chunk
        const found = /listening on (http:\/\/\S+)/.exec(stdout)
        if (found?.[1] !== undefined) resolve(found[1])
      })
      child.on("exit", () => reject(new Error(`receiver exited: ${stderr}`)))
    })
    try {
      const printedPost = new Promise<void>((resolve) =>
        child.stdout.on("data", () => stdout.includes("post.publish post_1") && resolve())
      )
      const accepted = await fetch(url, { method: "POST", headers: sign(publishBody), body: publishBody })
      expect(accepted.status).toBe(200)
      expect((await accepted.json() as any).posts[0].platformPostId).toBe("receiver-post_1")
      const rejected = await fetch(url, {
        method: "POST",
        headers: sign(publishBody, { ageSeconds: 360 }),
        body: publishBody
      })
      expect(rejected.status).toBe(401)
      expect((await rejected.json() as any).error.code).toBe("timestamp_skew")
      await printedPost
      expect(stdout).toContain(`post.publish post_1 channel=Match days platform=TIKTOK title="Late winner"`)
    } finally {
      child.kill("SIGTERM")
    }
    expect(await exited).toBe(0)
  })

  it("is listed by --help, and refuses a missing secret as a usage error", async () => {
    const output = async (args: ReadonlyArray<string>) => {
      const child = runCli(args)
      let text = ""
      child.stdout.on("data", (chunk) => (text += chunk))
      child.stderr.on("data", (chunk) => (text += chunk))
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve))
      return { code, text }
    }
    const help = await output(["--help"])
    expect(help.code).toBe(0)
    expect(help.text).toContain("clipwright receiver --secret whsec_… --port N")
    expect(help.text).toContain("clipwright admin workspace create")
    const missing = await output(["receiver", "--port", "0"])
    expect(missing.code).toBe(2)
    expect(missing.text).toContain("--secret whsec_… is required")
    const unsafe = await output(["receiver", "--secret", secret, "--redelivery-window", "7d"])
    expect(unsafe.code).toBe(2)
    expect(unsafe.text).toContain("--redelivery-window needs --seen-file")
  })
})
