import { Schema } from "effect"
import { clipsShareBytes, MB, storageSplit } from "./StorageSplit.js"

const Share = Schema.Struct({
  maxBytes: Schema.Number,
  usedBytes: Schema.Number,
  maxMb: Schema.Number,
  usedMb: Schema.Number,
  remainingBytes: Schema.Number
})

/** SPEC "Media file" storage block (on upload and quota), with `used` and `max` in MB as SPEC "Quota" adds. */
export const StorageBlock = Schema.Struct({
  maxMb: Schema.Number,
  maxBytes: Schema.Number,
  usedBytes: Schema.Number,
  usedBy: Schema.Struct({ media: Schema.Number, renders: Schema.Number }),
  remainingBytes: Schema.Number,
  includedMb: Schema.Number,
  mediaPercent: Schema.Number,
  media: Share,
  clips: Share,
  split: Schema.Struct({ minPercent: Schema.Number, maxPercent: Schema.Number }),
  used: Schema.Number,
  max: Schema.Number
})
export type StorageBlock = typeof StorageBlock.Type

/** Megabytes with two decimals: a few kilobytes of clips still show as used. */
const toMb = (bytes: number) => Math.round((bytes / MB) * 100) / 100

const share = (maxBytes: number, usedBytes: number) => ({
  maxBytes,
  usedBytes,
  maxMb: toMb(maxBytes),
  usedMb: toMb(usedBytes),
  remainingBytes: Math.max(0, maxBytes - usedBytes)
})

export interface StorageFacts {
  /** The workspace's storage allowance (`storage_mb`). */
  readonly storageMb: number
  readonly mediaSharePercent: number
  readonly mediaBytes: number
  readonly renderBytes: number
}

/** The block from the allowance, the split and the bytes actually held; the two shares add up to the whole. */
export const storageBlock = (facts: StorageFacts): StorageBlock => {
  const maxBytes = facts.storageMb * MB
  const clipsMax = clipsShareBytes(facts.storageMb, facts.mediaSharePercent)
  const usedBytes = facts.mediaBytes + facts.renderBytes
  return {
    maxMb: facts.storageMb,
    maxBytes,
    usedBytes,
    usedBy: { media: facts.mediaBytes, renders: facts.renderBytes },
    remainingBytes: Math.max(0, maxBytes - usedBytes),
    // Nothing can be bought on top yet, so what is included is the whole allowance.
    includedMb: facts.storageMb,
    mediaPercent: facts.mediaSharePercent,
    media: share(maxBytes - clipsMax, facts.mediaBytes),
    clips: share(clipsMax, facts.renderBytes),
    split: { ...storageSplit },
    used: toMb(usedBytes),
    max: facts.storageMb
  }
}

/** `POST /v1/storage/split`: the media library's share, a whole percent within the `split` range. */
export const SplitBody = Schema.Struct({
  mediaSharePercent: Schema.Int.pipe(Schema.between(storageSplit.minPercent, storageSplit.maxPercent))
})
export type SplitBody = typeof SplitBody.Type

export const StorageAnswer = Schema.Struct({ storage: StorageBlock })
