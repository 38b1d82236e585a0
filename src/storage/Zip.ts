import { NodeStream } from "@effect/platform-node"
import { Effect, Option, Runtime, Stream } from "effect"
import type { PassThrough, Readable } from "node:stream"
import { ZipFile } from "yazl"
import { BlobStorage, type BlobStorageService } from "./BlobStorage.js"
import { BlobNotFound } from "./Errors.js"
import { uniqueNames } from "./ZipNames.js"

export { safeName, uniqueNames } from "./ZipNames.js"

export type ZipSource =
  | { readonly name: string; readonly blobKey: string }
  | { readonly name: string; readonly buffer: Uint8Array }

export interface ZipOptions {
  /** Deflate every entry (default false: stored, right for mp4 and png, and the total size is known up front). */
  readonly compress?: boolean | undefined
  /** Modification time of every entry (default now). */
  readonly mtime?: Date | undefined
}

export interface ZipArchive<E = BlobNotFound> {
  /** Entry names as written, in the order given. */
  readonly names: ReadonlyArray<string>
  /** Exact size of the zip when nothing is compressed (for `content-length`). */
  readonly byteSize: Option.Option<number>
  /** The zip, built while it is read: blobs are opened one at a time, nothing is held whole in memory. */
  readonly stream: Stream.Stream<Uint8Array, E>
}

type Entry =
  | { readonly name: string; readonly blobKey: string; readonly byteSize: number }
  | { readonly name: string; readonly buffer: Uint8Array }

/** Lays the entries into a yazl zip; `open` gives a blob's bytes when yazl reaches it (undefined: never). */
const assemble = (
  entries: ReadonlyArray<Entry>,
  options: { readonly compress: boolean; readonly mtime: Date },
  open: (key: string) => Readable | undefined
) => {
  const zip = new ZipFile()
  let byteSize = -1
  for (const entry of entries) {
    if ("buffer" in entry) {
      const { buffer, byteOffset, byteLength } = entry.buffer
      zip.addBuffer(Buffer.from(buffer, byteOffset, byteLength), entry.name, options)
    } else {
      zip.addReadStreamLazy(entry.name, { ...options, size: entry.byteSize }, (callback) => {
        const readable = open(entry.blobKey)
        if (readable === undefined) return
        readable.on("error", (error) => zip.emit("error", error))
        callback(null, readable)
      })
    }
  }
  // yazl's types omit the size argument of the callback; it passes -1 when compression makes the size unknowable.
  const onSize = (size: number) => {
    byteSize = size
  }
  zip.end({ forceZip64Format: false, comment: "" }, onSize as () => void)
  return { zip, byteSize }
}

const zipStream = (
  entries: ReadonlyArray<Entry>,
  options: { readonly compress: boolean; readonly mtime: Date },
  storage: BlobStorageService
) =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const opened: Array<Readable> = []
    // A reader that stops early (client gone) must not leave blob files open.
    yield* Effect.addFinalizer(() => Effect.sync(() => opened.forEach((readable) => readable.destroy())))
    const { zip } = assemble(entries, options, (key) => {
      const readable = Runtime.runSync(runtime)(NodeStream.toReadable(storage.readStream(key)))
      opened.push(readable)
      return readable
    })
    const output = zip.outputStream as Readable
    zip.on("error", (error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))))
    return NodeStream.fromReadable(() => output, (error) => error).pipe(
      Stream.catchAll((error) => error instanceof BlobNotFound ? Stream.fail(error) : Stream.die(error))
    )
  }))

/** A zip of blobs and in-memory files; names are made safe and unique (see `uniqueNames`). */
export const buildZip = Effect.fn("Zip.build")(function*(sources: ReadonlyArray<ZipSource>, options: ZipOptions = {}) {
  const storage = yield* BlobStorage
  const settings = { compress: options.compress ?? false, mtime: options.mtime ?? new Date() }
  const names = uniqueNames(sources.map((source) => source.name))
  const entries = yield* Effect.forEach(sources, (source, i): Effect.Effect<Entry, BlobNotFound> => {
    const name = names[i]!
    if ("buffer" in source) return Effect.succeed({ name, buffer: source.buffer })
    return storage.stat(source.blobKey).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.fail(new BlobNotFound({ key: source.blobKey })),
        onSome: ({ byteSize }) => Effect.succeed({ name, blobKey: source.blobKey, byteSize })
      }))
    )
  })
  // A dry run that opens nothing tells the exact size (yazl's own arithmetic, so it cannot drift from the real one).
  const { byteSize } = assemble(entries, settings, () => undefined)
  return {
    names,
    byteSize: byteSize >= 0 ? Option.some(byteSize) : Option.none(),
    stream: zipStream(entries, settings, storage)
  } satisfies ZipArchive
})

/** Resumes once the zip's reader has taken what is buffered (at once when nothing waits). */
const taken = (output: PassThrough) =>
  Effect.async<void>((resume) => {
    if (!output.writableNeedDrain) return resume(Effect.void)
    const go = () => resume(Effect.void)
    output.once("drain", go)
    return Effect.sync(() => output.off("drain", go))
  })

/**
 * A zip of entries made while it is read: `entries` gives the bytes of each of `names` in order, and is pulled for the
 * next one only once the reader has taken the previous one, so a slow reader holds a couple of entries, not all of
 * them. Stored, not compressed; the size is not known up front. A failing entry fails the stream.
 */
export const streamedZip = <E>(
  names: ReadonlyArray<string>,
  entries: Stream.Stream<Uint8Array, E>,
  options: ZipOptions = {}
): ZipArchive<E> => {
  const unique = uniqueNames(names)
  const stream = Stream.unwrap(Effect.sync(() => {
    const settings = { compress: options.compress ?? false, mtime: options.mtime ?? new Date() }
    const zip = new ZipFile()
    const output = zip.outputStream as PassThrough
    const feed = entries.pipe(
      Stream.zipWithIndex,
      Stream.runForEach(([bytes, i]) =>
        Effect.suspend(() => {
          zip.addBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), unique[i]!, settings)
          return taken(output)
        })
      ),
      Effect.zipRight(Effect.sync(() => zip.end({ forceZip64Format: false, comment: "" })))
    )
    const written = NodeStream.fromReadable<unknown, Uint8Array>(() => output, (error) => error).pipe(Stream.orDie)
    return Stream.merge(written, Stream.drain(Stream.fromEffect(feed)))
  }))
  return { names: unique, byteSize: Option.none(), stream }
}
