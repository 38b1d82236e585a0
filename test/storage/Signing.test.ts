import { NodeContext } from "@effect/platform-node"
import { Migrator } from "@effect/sql"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted, String as Str, TestClock } from "effect"
import { beforeAll } from "vitest"
import { migrations } from "../../migrations/index.js"
import { makeSigning, Signing } from "../../src/storage/Signing.js"
import { query } from "../support/Database.js"
import { useDatabase } from "../support/Rig.js"

const db = useDatabase("signing")

beforeAll(async () => {
  await Effect.runPromise(
    Effect.provide(
      PgMigrator.run({ loader: Migrator.fromRecord(migrations) }),
      Layer.merge(PgClient.layer({ url: Redacted.make(db.url) }), NodeContext.layer)
    )
  )
})

/** One node's signing service: its own pool on the shared database. */
const startSigning = () =>
  Effect.provide(
    Signing,
    Signing.layer.pipe(Layer.provide(PgClient.layer({
      url: Redacted.make(db.url),
      transformQueryNames: Str.camelToSnake,
      transformResultNames: Str.snakeToCamel
    })))
  )

const secret = new Uint8Array(32).fill(7)
const at = (iso: string) => new Date(iso)

describe("Signing", () => {
  it("signs one resource until it expires; any change to resource, exp or sig fails", () => {
    const signing = makeSigning(secret)
    const now = at("2025-06-01T12:00:00Z")
    const { exp, sig } = signing.sign("/v1/assets/a1/download", at("2025-06-01T13:00:00.900Z"))
    expect(exp).toBe(Date.parse("2025-06-01T13:00:00Z") / 1000)
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(signing.verify("/v1/assets/a1/download", exp, sig, now)).toBe(true)
    expect(signing.verify("/v1/assets/a1/download", String(exp), sig, now)).toBe(true)

    expect(signing.verify("/v1/assets/a2/download", exp, sig, now)).toBe(false)
    expect(signing.verify("/v1/assets/a1/download/", exp, sig, now)).toBe(false)
    expect(signing.verify("/v1/assets/a1/download", exp + 1, sig, now)).toBe(false)
    expect(signing.verify("/v1/assets/a1/download", `${exp}0`, sig, now)).toBe(false)
    expect(signing.verify("/v1/assets/a1/download", `0${exp}`, sig, now)).toBe(false)
    expect(signing.verify("/v1/assets/a1/download", "1e12", sig, now)).toBe(false)
    const flipped = sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A")
    expect(signing.verify("/v1/assets/a1/download", exp, flipped, now)).toBe(false)
    expect(signing.verify("/v1/assets/a1/download", exp, sig + "!", now)).toBe(false)
    expect(signing.verify("/v1/assets/a1/download", exp, "", now)).toBe(false)
    expect(makeSigning(new Uint8Array(32).fill(8)).verify("/v1/assets/a1/download", exp, sig, now)).toBe(false)

    expect(signing.verify("/v1/assets/a1/download", exp, sig, at("2025-06-01T12:59:59Z"))).toBe(true)
    expect(signing.verify("/v1/assets/a1/download", exp, sig, at("2025-06-01T13:00:00Z"))).toBe(false)
    expect(signing.verify("/v1/assets/a1/download", exp, sig, at("2025-06-02T00:00:00Z"))).toBe(false)
  })

  it("refuses a short secret", () => {
    expect(() => makeSigning(new Uint8Array(16))).toThrow(/32 bytes/)
  })

  it.effect("signedUrl: base URL + path (query kept) with exp and sig that verify against the path", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2025-06-01T12:00:00Z"))
      const signing = yield* Signing
      const path = "/v1/export-files/j1?as=video"
      const { url, expiresAt } = yield* signing.signedUrl("https://clips.example.com/", path, "1 hour")
      expect(expiresAt).toEqual(at("2025-06-01T13:00:00Z"))
      const parsed = new URL(url)
      expect(parsed.origin + parsed.pathname).toBe("https://clips.example.com/v1/export-files/j1")
      expect(parsed.searchParams.get("as")).toBe("video")
      expect(parsed.searchParams.get("exp")).toBe(String(expiresAt.getTime() / 1000))
      const [exp, sig] = [parsed.searchParams.get("exp")!, parsed.searchParams.get("sig")!]
      expect(signing.verify("/v1/export-files/j1", exp, sig, at("2025-06-01T12:30:00Z"))).toBe(true)
      expect(signing.verify(path, exp, sig, at("2025-06-01T12:30:00Z"))).toBe(false)
    }).pipe(Effect.provide(Signing.layerSecret(secret))))

  it.live("two nodes starting together on one database agree on the secret; a restart keeps it", () =>
    Effect.gen(function*() {
      const [one, two] = yield* Effect.all([startSigning(), startSigning()], { concurrency: 2 })
      const now = new Date()
      const { exp, sig } = one.sign("/v1/assets/x/download", new Date(now.getTime() + 3600_000))
      expect(two.verify("/v1/assets/x/download", exp, sig, now)).toBe(true)
      const rows = yield* Effect.promise(() => query<{ secret: string }>(db.url, "SELECT secret FROM signing_keys"))
      expect(rows.length).toBe(1)
      expect(Buffer.from(rows[0]!.secret, "base64url").length).toBe(32)
      const three = yield* startSigning()
      expect(three.verify("/v1/assets/x/download", exp, sig, now)).toBe(true)
    }))
})
