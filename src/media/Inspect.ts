import { Chunk, Effect, Stream } from "effect"
import { sniff, SNIFF_BYTES, type Sniffed } from "./Sniff.js"

/** The head kept in memory while a file streams past: enough for every header `Dimensions` reads, most of the time. */
export const HEAD_BYTES = 64 * 1024

/** What a file of the sniffed type may be: its byte limit, and the refusal once the limit is passed. */
export interface Admission<X> {
  readonly maxBytes: number
  readonly tooLarge: () => X
}

/** Decides, from the sniffed type (`undefined`: unrecognised), whether and how much of the file is taken. */
export type Admit<X> = (sniffed: Sniffed | undefined) => Effect.Effect<Admission<X>, X>

export interface Inspected {
  readonly sniffed: Sniffed
  /** The first `HEAD_BYTES` of the file (or all of it). */
  readonly head: Uint8Array
}

/**
 * Passes a file's bytes through unchanged while recognising its type from the first `SNIFF_BYTES` and failing the
 * stream as soon as the admitted byte limit is passed, so nothing beyond the limit is read. `inspected` is set once
 * the stream has ended.
 */
export const inspect = <E, X>(content: Stream.Stream<Uint8Array, E>, fileName: string, admit: Admit<X>) =>
  Effect.sync(() => {
    const head = new Uint8Array(HEAD_BYTES)
    let headBytes = 0
    let total = 0
    let sniffed: Sniffed | undefined
    let admission: Admission<X> | undefined

    const decide = Effect.suspend(() => {
      if (admission !== undefined) return Effect.void
      sniffed = sniff(head.subarray(0, headBytes), fileName)
      return Effect.map(admit(sniffed), (a) => {
        admission = a
      })
    })
    const withinLimit = Effect.suspend(() =>
      admission !== undefined && total > admission.maxBytes ? Effect.fail(admission.tooLarge()) : Effect.void
    )

    const stream = content.pipe(
      Stream.mapChunksEffect((chunk) => {
        for (const part of Chunk.toReadonlyArray(chunk)) {
          total += part.length
          if (headBytes < HEAD_BYTES) {
            const take = part.subarray(0, HEAD_BYTES - headBytes)
            head.set(take, headBytes)
            headBytes += take.length
          }
        }
        const decided = headBytes >= SNIFF_BYTES ? decide : Effect.void
        return Effect.as(Effect.zipRight(decided, withinLimit), chunk)
      }),
      Stream.concat(Stream.drain(Stream.fromEffect(Effect.zipRight(decide, withinLimit))))
    )
    const inspected = (): Inspected | undefined =>
      sniffed === undefined ? undefined : { sniffed, head: head.slice(0, headBytes) }
    return { stream, inspected }
  })
