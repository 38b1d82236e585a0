import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Stream } from "effect"
import { type Admit, inspect } from "../../src/media/Inspect.js"
import type { Sniffed } from "../../src/media/Sniff.js"
import { png, ttf } from "../support/MediaFiles.js"

class TooLarge {
  readonly _tag = "TooLarge"
}
class Refused {
  readonly _tag = "Refused"
}

const KB = 1024

/** `count` chunks of 1 KB after `head`, counting how many were pulled. */
const counted = (head: Uint8Array, count: number) => {
  let pulled = 0
  const chunks = [head, ...Array.from({ length: count }, () => new Uint8Array(KB))]
  const stream = Stream.fromIterable(chunks).pipe(Stream.rechunk(1), Stream.tap(() => Effect.sync(() => pulled++)))
  return { stream, pulled: () => pulled }
}

const admitUpTo = (maxBytes: number): Admit<TooLarge | Refused> => (sniffed: Sniffed | undefined) =>
  sniffed === undefined ? Effect.fail(new Refused()) : Effect.succeed({ maxBytes, tooLarge: () => new TooLarge() })

describe("inspect", () => {
  it.effect("stops pulling at the first chunk past the admitted limit", () =>
    Effect.gen(function*() {
      const source = counted(png(10, 10), 1000)
      const { stream } = yield* inspect(source.stream, "x.png", admitUpTo(20 * KB))
      const exit = yield* Effect.exit(Stream.runDrain(stream))
      expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("TooLarge")
      expect(source.pulled()).toBeLessThanOrEqual(22)
    }))

  it.effect("refuses an unknown type once the sniffing bytes are in", () =>
    Effect.gen(function*() {
      const source = counted(new TextEncoder().encode("plain text"), 1000)
      const { stream } = yield* inspect(source.stream, "notes.txt", admitUpTo(100 * KB))
      const exit = yield* Effect.exit(Stream.runDrain(stream))
      expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("Refused")
      expect(source.pulled()).toBeLessThanOrEqual(6)
    }))

  it.effect("passes every byte through and keeps the head of a small file", () =>
    Effect.gen(function*() {
      const font = ttf()
      const { inspected, stream } = yield* inspect(Stream.make(font), "a.ttf", admitUpTo(10 * 1024 * KB))
      const chunks = yield* Stream.runCollect(stream)
      expect([...chunks].reduce((n, c) => n + c.length, 0)).toBe(font.length)
      expect(inspected()?.sniffed.mimeType).toBe("font/ttf")
      expect(inspected()?.head.length).toBe(Math.min(font.length, 64 * KB))
    }))

  it.effect("decides at the end for a file shorter than the sniffing bytes", () =>
    Effect.gen(function*() {
      const tiny = png(1, 1)
      const { inspected, stream } = yield* inspect(Stream.make(tiny), "p", admitUpTo(10))
      const exit = yield* Effect.exit(Stream.runDrain(stream))
      expect(Exit.isFailure(exit)).toBe(tiny.length > 10)
      expect(inspected()?.sniffed.mimeType).toBe("image/png")
    }))
})
