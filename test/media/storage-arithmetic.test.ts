import { describe, expect, it } from "vitest"
import { storageBlock } from "../../src/media/StorageBlock.js"
import { clipsShareBytes, mediaShareBytes, oldestToRemove } from "../../src/media/StorageSplit.js"

const MB = 1024 * 1024
const clips = [{ id: "a", byteSize: 40 }, { id: "b", byteSize: 30 }, { id: "c", byteSize: 20 }]

describe("storage arithmetic", () => {
  it("the two shares add up to the whole allowance, whatever the rounding", () => {
    for (const percent of [10, 33, 50, 67, 90]) {
      expect(clipsShareBytes(7, percent) + mediaShareBytes(7, percent)).toBe(7 * MB)
    }
  })

  it("removes the oldest clips first, only as many as needed", () => {
    expect(oldestToRemove(clips, 0, 90)).toEqual([])
    expect(oldestToRemove(clips, 10, 90).map((c) => c.id)).toEqual(["a"])
    expect(oldestToRemove(clips, 50, 90).map((c) => c.id)).toEqual(["a", "b"])
    expect(oldestToRemove(clips, 0, 20).map((c) => c.id)).toEqual(["a", "b"])
    expect(oldestToRemove(clips, 0, 0).map((c) => c.id)).toEqual(["a", "b", "c"])
  })

  it("the block: remaining never negative, MB with two decimals", () => {
    const block = storageBlock({ storageMb: 1, mediaSharePercent: 70, mediaBytes: 900_000, renderBytes: 213_113 })
    expect(block.usedBytes).toBe(1_113_113)
    expect(block.remainingBytes).toBe(0)
    const clips = { maxBytes: 314_572, usedBytes: 213_113, maxMb: 0.3, usedMb: 0.2, remainingBytes: 101_459 }
    expect(block.clips).toEqual(clips)
    expect(block.media.maxBytes).toBe(MB - 314_572)
    expect(block.media.remainingBytes).toBe(0)
    expect(block.used).toBe(1.06)
  })
})
