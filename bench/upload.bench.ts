/**
 * `npm run bench:upload`: upload throughput of a 40 MB video and the node's peak memory while 4 upload at once.
 *
 * Makes a real MP4 of about 40 MB once per run (ffmpeg, `testsrc2` 1920×1080, libx264) in a temporary directory, starts
 * one clipwright node (`node dist/src/main.js`, as `npm start` does) on a fresh database of the local PostgreSQL
 * (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), creates a workspace with 2 GB of storage, a
 * key and one brand per upload, and sends the file into the brands' `background` slot (MP4 up to 50 MB) as a multipart
 * body streamed from disk by `fetch` (`FormData` holding `fs.openAsBlob`): one upload alone, then 4 at once. While
 * each runs, the resident memory of the node and its child processes is sampled every 50 ms from /proc. Yardsticks in
 * the same run: copying the file on disk (`fs.copyFile`, `cp`) and a bare `node:http` server (its own process) that
 * streams each request body to a file, receiving the same uploads. MB here are 2^20 bytes.
 * Options: --size MB (40), --concurrent N (4), --json.
 * Not a test: it prints figures next to their targets and exits 0 whether they are met or not.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { ffmpegPath } from "../src/drawing/Ffmpeg.js"
import { createTestDatabase, type TestDatabase } from "../test/support/Database.js"
import { startNode, type TestNode } from "../test/support/Node.js"
import { call, cleanUpOnSignal, fmt, log, sleep, startPlain, stopChild, table } from "./support/Common.js"
import { allProcesses, parentOf } from "./support/Proc.js"

const MB = 1024 * 1024

const { values: flags } = parseArgs({
  options: {
    size: { type: "string", default: "40" },
    concurrent: { type: "string", default: "4" },
    json: { type: "boolean", default: false }
  }
})
const targetBytes = Number(flags.size) * MB
const concurrent = Number(flags.concurrent)

const run = (command: string, args: ReadonlyArray<string>) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] })
    let errors = ""
    child.stderr?.on("data", (d) => (errors += d))
    child.once("error", reject)
    child.once(
      "exit",
      (code) => code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${errors}`))
    )
  })

/** Dirty pages of the previous phase go to disk first, so no phase pays for another's writes. */
const settle = async () => {
  await run("sync", [])
  await sleep(2000)
}

/** A real H.264 MP4 of about `targetBytes` (within 5 %): one encode, and a second with the length corrected if off. */
const makeVideo = async (file: string) => {
  const encode = (seconds: number) =>
    run(ffmpegPath(), [
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=s=1920x1080:r=30",
      "-t",
      seconds.toFixed(2),
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-b:v",
      "20M",
      "-maxrate",
      "20M",
      "-bufsize",
      "40M",
      "-pix_fmt",
      "yuv420p",
      "-f",
      "mp4",
      file
    ])
  // 20 Mbit/s is 2.5 MB/s: 16 s for 40 MB.
  let seconds = targetBytes / (20_000_000 / 8)
  await encode(seconds)
  const first = fs.statSync(file).size
  if (Math.abs(first - targetBytes) / targetBytes > 0.05) {
    seconds = seconds * targetBytes / first
    await encode(seconds)
  }
  return { bytes: fs.statSync(file).size, seconds }
}

/** Resident memory in bytes of a process, from /proc (Linux); 0 once it is gone. */
const rssOf = (pid: number) => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024
  } catch {
    return 0
  }
}

/** The kernel's own peak (VmHWM) of one process, in bytes. */
const peakOf = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) * 1024
}

/** Resets VmHWM to the current RSS (`echo 5 > /proc/<pid>/clear_refs`); false where that is not allowed. */
const resetPeak = (pid: number) => {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5")
    return true
  } catch {
    return false
  }
}

/** `pid` and every process below it (the parent of each process read from /proc/<pid>/stat). */
const treeOf = (pid: number) => {
  const children = new Map<number, Array<number>>()
  for (const process of allProcesses()) {
    const list = children.get(parentOf(process)) ?? []
    list.push(process.pid)
    children.set(parentOf(process), list)
  }
  const tree: Array<number> = []
  const visit = (p: number) => {
    tree.push(p)
    for (const child of children.get(p) ?? []) visit(child)
  }
  visit(pid)
  return tree
}

/** The RSS of a process and its children together, in bytes. */
const treeRss = (pid: number) => {
  const tree = treeOf(pid)
  return { bytes: tree.reduce((sum, p) => sum + rssOf(p), 0), processes: tree.length }
}

/** Samples the RSS of a process tree every 50 ms until stopped; answers peak, samples and most processes. */
const sampleRss = (pid: number) => {
  let peak = 0
  let samples = 0
  let processes = 0
  const take = () => {
    const now = treeRss(pid)
    peak = Math.max(peak, now.bytes)
    processes = Math.max(processes, now.processes)
    samples++
  }
  take()
  const timer = setInterval(take, 50)
  return () => {
    clearInterval(timer)
    take()
    return { peak, samples, processes }
  }
}

/** One multipart upload of the file, streamed from disk (the Blob is backed by the file). Answers its time and body. */
const uploadFile = async (url: string, key: string, file: string) => {
  const form = new FormData()
  form.append("file", await fs.openAsBlob(file, { type: "video/mp4" }), "background.mp4")
  const started = performance.now()
  const response = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form })
  const text = await response.text()
  const ms = performance.now() - started
  if (response.status !== 201) throw new Error(`POST ${url}: ${response.status} ${text}`)
  return { ms, json: JSON.parse(text) as any }
}

interface Phase {
  readonly count: number
  readonly wallMs: number
  readonly eachMs: ReadonlyArray<number>
  readonly idle: number
  readonly peak: number
  /** The kernel's VmHWM of the main process after the phase (reset before it), when it could be reset. */
  readonly hwm: number | undefined
  readonly samples: number
  readonly processes: number
}

/** `count` uploads at once (one URL each), with the server's memory sampled throughout. */
const uploadPhase = async (
  pid: number,
  urls: ReadonlyArray<string>,
  key: string,
  file: string,
  check: (json: any) => void
): Promise<Phase> => {
  await settle()
  const idle = treeRss(pid).bytes
  const reset = resetPeak(pid)
  const stop = sampleRss(pid)
  const started = performance.now()
  const results = await Promise.all(urls.map((url) => uploadFile(url, key, file)))
  const wallMs = performance.now() - started
  const { peak, processes, samples } = stop()
  results.forEach((r) => check(r.json))
  const hwm = reset ? peakOf(pid) : undefined
  return { count: urls.length, wallMs, eachMs: results.map((r) => r.ms), idle, peak, hwm, samples, processes }
}

/** `count` copies at once with `fs.copyFile`, or one with `cp`. */
const copyPhase = async (file: string, dir: string, how: "copyFile" | "cp", count: number) => {
  await settle()
  const started = performance.now()
  const eachMs = await Promise.all(Array.from({ length: count }, async (_, i) => {
    const target = path.join(dir, `copy-${how}-${i}.mp4`)
    const t = performance.now()
    if (how === "cp") await run("cp", [file, target])
    else await fs.promises.copyFile(file, target)
    return performance.now() - t
  }))
  const wallMs = performance.now() - started
  for (let i = 0; i < count; i++) fs.rmSync(path.join(dir, `copy-${how}-${i}.mp4`), { force: true })
  return { count, wallMs, eachMs }
}

const main = async () => {
  let database: TestDatabase | undefined
  let node: TestNode | undefined
  let plain: Awaited<ReturnType<typeof startPlain>> | undefined
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-bench-upload-"))
  let cleaned: Promise<void> | undefined
  const cleanUp = () => (cleaned ??= (async () => {
    if (plain !== undefined) await stopChild(plain.process)
    if (node !== undefined) {
      await node.stop()
      fs.rmSync(node.dataDir, { recursive: true, force: true })
    }
    if (database !== undefined) await database.drop()
    fs.rmSync(work, { recursive: true, force: true })
  })())
  cleanUpOnSignal(cleanUp)
  const loadBefore = os.loadavg()[0]!
  try {
    const video = path.join(work, "background.mp4")
    log(`making a ${fmt(targetBytes / MB)} MB MP4 with ${ffmpegPath()}`)
    const made = performance.now()
    const { bytes, seconds } = await makeVideo(video)
    const makeMs = performance.now() - made
    const size = bytes / MB
    log(`${video}: ${bytes} bytes (${fmt(size, 1)} MB, ${fmt(seconds, 1)} s of 1080p) in ${fmt(makeMs / 1000, 1)} s`)

    const copyDir = path.join(work, "copies")
    const plainDir = path.join(work, "plain")
    fs.mkdirSync(copyDir)
    fs.mkdirSync(plainDir)

    database = await createTestDatabase("bench_upload")
    log(`database ${new URL(database.url).pathname.slice(1)}; starting the node`)
    node = await startNode({ databaseUrl: database.url, compiled: true })
    const pid = node.process.pid!
    const admin = node.adminToken
    const workspace = (await call(`${node.url}/admin/workspaces`, "POST", admin, { name: "Bench workspace" })).json
    await call(`${node.url}/admin/workspaces/${workspace.accountId}/limits`, "PUT", admin, { storageMb: 2048 })
    const key: string = (await call(`${node.url}/admin/workspaces/${workspace.accountId}/keys`, "POST", admin, {
      scopes: ["*"],
      name: "bench"
    })).json.apiKey
    // Every upload of the run stays stored (one brand each): the media share must hold them all, and each upload is
    // admitted against the room left when it starts, so also room for one more at the slot's 50 MB.
    const needed = (2 + concurrent) * bytes + 50 * MB
    let storage = (await call(`${node.url}/v1/media`, "GET", key)).json.storage
    if (storage.media.remainingBytes < needed) {
      storage = (await call(`${node.url}/v1/storage/split`, "POST", key, {
        mediaSharePercent: storage.split.maxPercent
      })).json.storage
    }
    log(`storage ${storage.maxMb} MB, media share ${storage.mediaPercent} % (${fmt(storage.media.maxBytes / MB)} MB)`)
    if (storage.media.remainingBytes < needed) throw new Error(`The media share holds ${storage.media.remainingBytes}.`)
    const brandUrls: Array<string> = []
    for (let i = 0; i < 2 + concurrent; i++) {
      const { brand } = (await call(`${node.url}/v1/brands`, "POST", key, {})).json
      brandUrls.push(`${node.url}/v1/brands/${brand.id}/assets/background`)
    }
    plain = await startPlain("bench/support/PlainUploadServer.ts", { DIR: plainDir })
    const plainPid = plain.process.pid!
    const plainUrls = Array.from({ length: concurrent }, (_, i) => `${plain!.url}/upload/${i}`)

    const nodeCheck = (json: any) => {
      if (json.file?.byteSize !== bytes || json.file?.mimeType !== "video/mp4") {
        throw new Error(`The node stored something else: ${JSON.stringify(json.file)}`)
      }
    }
    const plainCheck = (json: any) => {
      if (!(json.bytes > bytes)) throw new Error(`The plain server wrote ${json.bytes} bytes.`)
    }

    const loadMeasured = os.loadavg()[0]!
    log("measure  disk copies")
    const copyOne = await copyPhase(video, copyDir, "copyFile", 1)
    const cpOne = await copyPhase(video, copyDir, "cp", 1)
    const copyMany = await copyPhase(video, copyDir, "copyFile", concurrent)

    await settle()
    const coldIdle = treeRss(pid).bytes
    log("warm-up  one upload to each server (not counted)")
    await uploadFile(`${plain.url}/warm-up`, key, video).then((r) => plainCheck(r.json))
    await uploadFile(brandUrls[0]!, key, video).then((r) => nodeCheck(r.json))

    log("measure  plain node:http: 1 upload, then " + concurrent + " at once")
    const plainOne = await uploadPhase(plainPid, [plainUrls[0]!], key, video, plainCheck)
    const plainMany = await uploadPhase(plainPid, plainUrls, key, video, plainCheck)
    log("measure  clipwright: 1 upload, then " + concurrent + " at once")
    const nodeOne = await uploadPhase(pid, [brandUrls[1]!], key, video, nodeCheck)
    const nodeMany = await uploadPhase(pid, brandUrls.slice(2), key, video, nodeCheck)
    const listed = (await call(`${node.url}/v1/media`, "GET", key)).json
    const stored = (listed.files as Array<{ byteSize: number }>).filter((f) => f.byteSize === bytes).length

    const mbps = (p: { count: number; wallMs: number }) => p.count * size / (p.wallMs / 1000)
    const each = (p: { eachMs: ReadonlyArray<number> }) => p.eachMs.map((ms) => fmt(ms / 1000, 2)).join(", ")
    const growthLimit = concurrent * size / 2
    const growth = (nodeMany.peak - nodeMany.idle) / MB
    // The heap a first upload grows stays; over the idle before any upload too, so that it cannot hide a buffer.
    const coldGrowth = (nodeMany.peak - coldIdle) / MB
    const streamed = growth < growthLimit && coldGrowth < growthLimit
    const copyRow = (
      scenario: string,
      p: Awaited<ReturnType<typeof copyPhase>>
    ) => [scenario, fmt(p.wallMs / 1000, 2), fmt(mbps(p)), each(p), "", "", "", "(yardstick)", ""]
    const uploadRow = (scenario: string, p: Phase, target = "", met?: boolean) => [
      scenario,
      fmt(p.wallMs / 1000, 2),
      fmt(mbps(p)),
      each(p),
      fmt(p.idle / MB),
      fmt(p.peak / MB),
      `+${fmt((p.peak - p.idle) / MB, 1)}`,
      target,
      met === undefined ? "" : met ? "met" : "MISSED"
    ]
    const body = [
      copyRow("disk: fs.copyFile ×1", copyOne),
      copyRow("disk: cp ×1", cpOne),
      copyRow(`disk: fs.copyFile ×${concurrent} at once`, copyMany),
      uploadRow("plain node:http → file ×1", plainOne, "(yardstick)"),
      uploadRow(`plain node:http → file ×${concurrent} at once`, plainMany, "(yardstick)"),
      uploadRow("clipwright background slot ×1", nodeOne),
      uploadRow(
        `clipwright background slot ×${concurrent} at once`,
        nodeMany,
        `RSS growth < ${fmt(growthLimit)} MB`,
        growth < growthLimit
      ),
      [
        `clipwright ×${concurrent} peak over the idle before any upload`,
        "",
        "",
        "",
        fmt(coldIdle / MB),
        fmt(nodeMany.peak / MB),
        `+${fmt(coldGrowth, 1)}`,
        `RSS growth < ${fmt(growthLimit)} MB`,
        coldGrowth < growthLimit ? "met" : "MISSED"
      ]
    ]
    const cores = os.availableParallelism()
    const loadAfter = os.loadavg()[0]!
    const busy = loadBefore > cores / 2
      ? [
        `WARNING: the machine was busy before the run (1-min load ${fmt(loadBefore, 2)} on ${cores} cores); ` +
        "other work competed for the CPU and the figures are low. Run again on a quiet machine.",
        ""
      ]
      : []
    const hwm = (p: Phase) => (p.hwm === undefined ? "n/a" : `${fmt(p.hwm / MB)} MB`)

    const out = [
      "",
      `clipwright upload benchmark: ${cores} cores (${os.cpus()[0]?.model.trim() ?? "?"}), Node ${process.version}; ` +
      `a ${fmt(size, 1)} MB MP4 (${bytes} bytes) sent as multipart/form-data by fetch, streamed from disk; client, ` +
      `node, plain server and PostgreSQL share this machine. MB = 2^20 bytes; RSS sampled every 50 ms from /proc ` +
      `(the server and its child processes), idle 2 s after a sync.`,
      `1-min load average ${fmt(loadBefore, 2)} before the run, ${fmt(loadMeasured, 2)} when the measuring began ` +
      `(after the video's encode), ${fmt(loadAfter, 2)} after.`,
      "",
      ...busy,
      table(
        ["scenario", "wall s", "MB/s", "each s", "idle RSS MB", "peak RSS MB", "growth MB", "target", ""],
        body
      ),
      "",
      `clipwright / plain node:http: ${fmt(mbps(nodeOne) / mbps(plainOne) * 100, 1)} % of the MB/s alone, ` +
      `${fmt(mbps(nodeMany) / mbps(plainMany) * 100, 1)} % with ${concurrent} at once; the node's own peak ` +
      `(VmHWM, reset before each phase) ${hwm(nodeOne)} alone, ${hwm(nodeMany)} with ${concurrent}; ` +
      `${nodeMany.samples} samples, at most ${nodeMany.processes} process(es) in the node's tree; ` +
      `${stored} files of ${bytes} bytes listed in /v1/media afterwards.`,
      `Summary: a ${fmt(size)} MB MP4 uploads at ${fmt(mbps(nodeOne))} MB/s alone and ${fmt(mbps(nodeMany))} MB/s ` +
      `together with ${concurrent} at once (plain node:http ${fmt(mbps(plainMany))} MB/s, disk copy ` +
      `${fmt(mbps(copyMany))} MB/s); the node's RSS peaked at ${fmt(nodeMany.peak / MB)} MB, ` +
      `+${fmt(growth, 1)} MB over the idle before it (+${fmt(coldGrowth, 1)} MB over the idle before any upload) — ` +
      `streamed: ${streamed ? "yes" : "no"}.`,
      ""
    ]
    process.stdout.write(out.join("\n") + "\n")
    if (flags.json) {
      const brief = (p: { count: number; wallMs: number; eachMs: ReadonlyArray<number> }) => ({
        count: p.count,
        wallMs: p.wallMs,
        eachMs: p.eachMs,
        mbPerSecond: mbps(p)
      })
      const memory = (p: Phase) => ({ idleRss: p.idle, peakRss: p.peak, hwm: p.hwm ?? null, samples: p.samples })
      process.stdout.write(
        JSON.stringify(
          {
            bytes,
            copyFile: brief(copyOne),
            cp: brief(cpOne),
            copyFileConcurrent: brief(copyMany),
            plain: { ...brief(plainOne), ...memory(plainOne) },
            plainConcurrent: { ...brief(plainMany), ...memory(plainMany) },
            node: { ...brief(nodeOne), ...memory(nodeOne) },
            nodeConcurrent: { ...brief(nodeMany), ...memory(nodeMany) },
            coldIdleRss: coldIdle,
            growthMb: growth,
            coldGrowthMb: coldGrowth,
            streamed,
            loadBefore,
            loadMeasured,
            loadAfter
          },
          null,
          2
        ) + "\n"
      )
    }
  } finally {
    await cleanUp()
  }
}

await main()
