import { describe, expect, it } from "vitest"
import { PayloadTooLarge } from "../../src/domain/Errors.js"
import { checkLinkKey, issueLinkKey } from "../../src/renders/exports/ExportLinkKeys.js"
import { MAX_ZIP_BYTES, videoFileName, zipSizeProblem } from "../../src/renders/exports/KeptExport.js"
import { makeSigning } from "../../src/storage/Signing.js"

describe("link keys (pure, fake clock)", () => {
  const signing = makeSigning(new Uint8Array(32).fill(9))
  const t0 = new Date("2030-01-01T00:00:00Z")
  const plus = (minutes: number) => new Date(t0.getTime() + minutes * 60_000)

  it("an unkept video's key lasts 15 minutes and names exactly one export", () => {
    const issued = issueLinkKey(signing, "JOB1", false, t0)
    expect(issued.expiresAt).toEqual(plus(15))
    expect(checkLinkKey(signing, "JOB1", issued.key, plus(14))).toEqual({ _tag: "Valid", whileKept: false })
    expect(checkLinkKey(signing, "JOB1", issued.key, plus(16))._tag).toBe("Invalid")
    expect(checkLinkKey(signing, "JOB2", issued.key, plus(1))._tag).toBe("Invalid")
    const [exp, sig] = issued.key.split(".") as [string, string]
    expect(checkLinkKey(signing, "JOB1", `${Number(exp) + 3600}.${sig}`, plus(1))._tag).toBe("Invalid")
    expect(checkLinkKey(signing, "JOB1", `kept.${sig}`, plus(1))._tag).toBe("Invalid")
    expect(checkLinkKey(signing, "JOB1", "", plus(1))._tag).toBe("Invalid")
  })

  it("never outlives the file: capped at notAfter", () => {
    const issued = issueLinkKey(signing, "JOB1", false, t0, plus(5))
    expect(issued.expiresAt).toEqual(plus(5))
    expect(checkLinkKey(signing, "JOB1", issued.key, plus(6))._tag).toBe("Invalid")
  })

  it("a kept video's key has no date (held while kept, which the route checks)", () => {
    const issued = issueLinkKey(signing, "JOB1", true, t0)
    expect(issued.expiresAt).toBeNull()
    const tenYears = plus(60 * 24 * 365 * 10)
    expect(checkLinkKey(signing, "JOB1", issued.key, tenYears)).toEqual({ _tag: "Valid", whileKept: true })
    const tampered = issued.key.slice(0, -1) + (issued.key.endsWith("A") ? "B" : "A")
    expect(checkLinkKey(signing, "JOB1", tampered, t0)._tag).toBe("Invalid")
    expect(checkLinkKey(makeSigning(new Uint8Array(32).fill(8)), "JOB1", issued.key, t0)._tag).toBe("Invalid")
  })
})

describe("zip rules (pure)", () => {
  it("400 MB together is the ceiling", () => {
    expect(zipSizeProblem([MAX_ZIP_BYTES])).toBeUndefined()
    expect(zipSizeProblem([300 * 1024 * 1024, 100 * 1024 * 1024 + 1])).toBeInstanceOf(PayloadTooLarge)
  })

  it("names by template, variant, version, brand, shape and language", () => {
    const base = { templateName: "Market move", variant: "compact", version: "1.0.1", ratio: "9x16", locale: "de" }
    expect(videoFileName({ ...base, brandName: null })).toBe("market-move_compact_1.0.1_no-brand_9x16_de.mp4")
    expect(videoFileName({ ...base, brandName: "Café Ünion / Süd" })).toBe(
      "market-move_compact_1.0.1_cafe-union-sud_9x16_de.mp4"
    )
  })
})
