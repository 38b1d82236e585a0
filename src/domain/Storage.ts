/** The range the media library's share of storage may be set within (`/v1/storage/split`). */
export const storageSplit = { minPercent: 10, maxPercent: 90 } as const

const MB = 1024 * 1024

/** Bytes rendered clips may keep: the storage allowance less the media library's share. */
export const clipsShareBytes = (storageMb: number, mediaSharePercent: number) =>
  Math.floor(storageMb * MB * (100 - mediaSharePercent) / 100)
