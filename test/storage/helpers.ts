import { Chunk, Effect, Stream } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

/** A fresh folder for one test file's blob store. */
export const tempRoot = (label: string) => fs.mkdtempSync(path.join(os.tmpdir(), `cw-${label}-`))

export const sha256 = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex")

/** Deterministic bytes, different per seed. */
export const bytesOf = (size: number, seed = 1) => {
  const out = new Uint8Array(size)
  let x = seed * 2654435761
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    out[i] = x >>> 24
  }
  return out
}

/** `bytes` as a stream of `chunkSize` pieces. */
export const chunked = (bytes: Uint8Array, chunkSize: number) =>
  Stream.range(0, Math.ceil(bytes.length / chunkSize) - 1).pipe(
    Stream.map((i) => bytes.subarray(i * chunkSize, Math.min(bytes.length, (i + 1) * chunkSize)))
  )

export const collect = <E, R>(stream: Stream.Stream<Uint8Array, E, R>) =>
  Stream.runCollect(stream).pipe(Effect.map((chunks) => Buffer.concat(Chunk.toReadonlyArray(chunks))))

/** Every file under `dir`, relative, sorted. */
export const listFiles = (dir: string): Array<string> =>
  fs.existsSync(dir)
    ? (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<fs.Dirent>)
      .filter((d) => d.isFile())
      .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
      .sort()
    : []

/**
 * Reads `read()` until `done` holds, for up to 5 s; answers the last reading. For what files and processes show a
 * moment after the code under test let go of them (finalizers run, children reaped), which a loaded machine delays.
 */
export const soon = <A>(read: () => A, done: (a: A) => boolean): Effect.Effect<A> =>
  Effect.gen(function*() {
    const deadline = Date.now() + 5000
    for (;;) {
      const value = read()
      if (done(value) || Date.now() > deadline) return value
      yield* Effect.sleep("10 millis")
    }
  })
