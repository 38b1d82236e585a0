/**
 * `npm run bench:storage`: the blob store's upload, Range read and clip write throughput, the local folder against an
 * S3-compatible store on loopback (s3rver in its own process), in one run, on 50 MB files (BENCH_STORAGE_MB to
 * change). Prints one table; the S3 path should stay within 2× the local one, with this process's memory flat while
 * streaming (peak RSS over the baseline, sampled every 20 ms). The same operations made with the AWS SDK alone on the
 * same store (bench/support/SdkAlone.ts) tell the store's own cost from the adapter's. One unmeasured warm-up round,
 * then BENCH_STORAGE_ROUNDS (3) rounds, the stores' order rotated each round (the first to meet a cold s3rver and a
 * cold JIT pays for it); each figure is the median of its rounds, with this process's CPU time beside the S3 ones.
 */
import { Effect, Stream } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { BlobStorage, type BlobStorageService } from "../src/storage/BlobStorage.js"
import { LocalBlobStorage } from "../src/storage/LocalBlobStorage.js"
import { s3StorageOn } from "../test/storage/S3Layer.js"
import { cleanUpOnSignal, fmt, log, startPlain, stopChild, table } from "./support/Common.js"
import { sdkAlone } from "./support/SdkAlone.js"

const MB = 1024 * 1024
const size = Number(process.env["BENCH_STORAGE_MB"] ?? 50) * MB
const CHUNK = 64 * 1024
const RANGE = MB
const RANGES = 40
const ROUNDS = Number(process.env["BENCH_STORAGE_ROUNDS"] ?? 3)

const chunk = new Uint8Array(CHUNK).map((_, i) => (i * 31) & 255)
/** `size` bytes as an upload arrives: 64 KiB at a time, never whole in memory. */
const source = () => Stream.repeatValue(chunk).pipe(Stream.take(size / CHUNK))

interface Row {
  readonly store: string
  readonly op: string
  readonly bytes: number
  readonly ms: number
  readonly cpuMs: number
  readonly peakMb: number
}

/** Runs `work`, sampling RSS: answers its time and the peak RSS above the RSS when it started. */
const measured = async (work: () => Promise<unknown>) => {
  global.gc?.()
  const base = process.memoryUsage().rss
  let peak = base
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
  const started = performance.now()
  const cpu = process.cpuUsage()
  await work()
  const ms = performance.now() - started
  const { system, user } = process.cpuUsage(cpu)
  clearInterval(timer)
  return { ms, cpuMs: (user + system) / 1000, peakMb: (Math.max(peak, process.memoryUsage().rss) - base) / MB }
}

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

/** The operations measured, made by the blob store port or by the SDK alone. */
interface Ops {
  readonly upload: () => Promise<unknown>
  readonly rangeRead: (start: number, end: number) => Promise<unknown>
  readonly wholeRead: () => Promise<unknown>
  readonly clipWrite: (file: string) => Promise<unknown>
  readonly verify?: () => Promise<unknown>
}

const portOps = (storage: BlobStorageService): Ops => {
  let sha256 = ""
  return {
    upload: () => run(storage.putStream("media/bench/upload.bin", source(), { maxBytes: size })),
    rangeRead: (start, end) => run(Stream.runDrain(storage.readStream("media/bench/upload.bin", { start, end }))),
    wholeRead: () => run(Stream.runDrain(storage.readStream("media/bench/upload.bin"))),
    clipWrite: async (file) => (sha256 = (await run(storage.putFile("clips/bench/clip.mp4", file))).sha256),
    // The S3 adapter remembers the hash it took while uploading; a node that did not write the file hashes it once.
    verify: () => run(storage.verify("clips/bench/clip.mp4", sha256))
  }
}

const benchStore = async (label: string, ops: Ops, tmp: string): Promise<Array<Row>> => {
  const rows: Array<Row> = []
  const row = async (op: string, work: () => Promise<unknown>, bytes = size) => {
    const { cpuMs, ms, peakMb } = await measured(work)
    rows.push({ store: label, op, bytes, ms, cpuMs, peakMb })
    log(
      `${label} ${op}: ${fmt(ms)} ms (${fmt(cpuMs)} ms CPU), ${fmt(bytes / MB / (ms / 1000), 1)} MB/s, ` +
        `peak +${fmt(peakMb)} MB RSS`
    )
  }
  await row("upload (streamed)", ops.upload)
  await row(`Range reads (${RANGES} × 1 MiB)`, async () => {
    for (let i = 0; i < RANGES; i++) {
      const start = Math.floor((i * (size - RANGE)) / RANGES)
      await ops.rangeRead(start, start + RANGE - 1)
    }
  }, RANGES * RANGE)
  await row("whole read", ops.wholeRead)
  const clip = path.join(tmp, `clip-${label}.mp4`)
  const fd = fs.openSync(clip, "w")
  for (let i = 0; i < size / CHUNK; i++) fs.writeSync(fd, chunk)
  fs.closeSync(fd)
  await row("clip write (putFile)", () => ops.clipWrite(clip))
  if (ops.verify !== undefined) await row("verify before serving (sha256)", ops.verify)
  return rows
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cw-bench-storage-"))
let store: { readonly process: import("node:child_process").ChildProcess } | undefined
cleanUpOnSignal(async () => {
  if (store !== undefined) await stopChild(store.process)
  fs.rmSync(tmp, { recursive: true, force: true })
})
/** The median row of each operation over the rounds, with the highest peak RSS of any of them. */
const medianRows = (rounds: ReadonlyArray<ReadonlyArray<Row>>): Array<Row> =>
  rounds[0]!.map((first, i) => {
    const of = rounds.map((r) => r[i]!)
    const median = (pick: (r: Row) => number) => of.map(pick).sort((a, b) => a - b)[Math.floor(of.length / 2)]!
    return {
      ...first,
      ms: median((r) => r.ms),
      cpuMs: median((r) => r.cpuMs),
      peakMb: Math.max(...of.map((r) => r.peakMb))
    }
  })

try {
  const local = await run(Effect.provide(BlobStorage, LocalBlobStorage.layerAt(path.join(tmp, "local"))))
  const plain = await startPlain("bench/support/S3rverServer.ts", { S3_DIR: path.join(tmp, "s3rver") })
  store = plain
  const byStore = await run(
    Effect.scoped(
      Effect.flatMap(
        s3StorageOn({ endpoint: plain.url }, "bench/"),
        (s3) =>
          Effect.promise(async () => {
            const sdk = sdkAlone(plain.url, chunk, size / CHUNK)
            const stores: Array<[string, Ops]> = [["local", portOps(local)], ["s3", portOps(s3)], ["sdk", sdk]]
            const rounds: Record<string, Array<Array<Row>>> = { local: [], s3: [], sdk: [] }
            try {
              for (let round = 0; round <= ROUNDS; round++) {
                log(round === 0 ? "warm-up round (not counted)" : `round ${round} of ${ROUNDS}`)
                for (let i = 0; i < stores.length; i++) {
                  const [label, ops] = stores[(i + round) % stores.length]!
                  const rows = await benchStore(label, ops, tmp)
                  if (round > 0) rounds[label]!.push(rows)
                }
              }
            } finally {
              sdk.close()
            }
            return {
              local: medianRows(rounds["local"]!),
              s3: medianRows(rounds["s3"]!),
              sdk: medianRows(rounds["sdk"]!)
            }
          })
      )
    )
  )
  const rows = byStore.local.map((l, i) => {
    const s = byStore.s3[i]!
    const k = byStore.sdk[i]
    const mbps = (r: Row) => `${fmt(r.bytes / MB / (r.ms / 1000), 1)} MB/s`
    return [
      l.op,
      mbps(l),
      mbps(s),
      `${fmt(s.ms / l.ms, 2)}×`,
      k === undefined ? "—" : mbps(k),
      k === undefined ? "—" : `${fmt(k.ms / l.ms, 2)}×`,
      k === undefined ? "—" : `${fmt(s.ms / k.ms, 2)}×`,
      k === undefined ? `${fmt(s.cpuMs)} ms` : `${fmt(s.cpuMs)} / ${fmt(k.cpuMs)} ms`,
      `+${fmt(l.peakMb)} / +${fmt(s.peakMb)} MB`
    ]
  })
  process.stdout.write(
    `\n${size / MB} MB files, median of ${ROUNDS} rounds, ${os.cpus().length} cores, load ${
      os.loadavg()[0]!.toFixed(1)
    }\n`
  )
  const columns = [
    "operation",
    "local",
    "S3 (s3rver)",
    "S3 / local time",
    "SDK alone on S3",
    "SDK alone / local",
    "S3 / SDK alone",
    "CPU S3 / SDK alone",
    "peak RSS local / S3"
  ]
  process.stdout.write(`${table(columns, rows)}\n`)
} finally {
  if (store !== undefined) await stopChild(store.process)
  fs.rmSync(tmp, { recursive: true, force: true })
}
