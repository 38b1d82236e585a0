/** The range the media library's share of storage may be set within (`/v1/storage/split`). */
export const storageSplit = { minPercent: 10, maxPercent: 90 } as const

export const MB = 1024 * 1024

/** Bytes rendered clips may keep: the storage allowance less the media library's share. */
export const clipsShareBytes = (storageMb: number, mediaSharePercent: number) =>
  Math.floor(storageMb * MB * (100 - mediaSharePercent) / 100)

/** Bytes the media library may hold: the allowance less the clips share, so the two add up to the whole. */
export const mediaShareBytes = (storageMb: number, mediaSharePercent: number) =>
  storageMb * MB - clipsShareBytes(storageMb, mediaSharePercent)

export interface HeldClip {
  readonly id: string
  readonly byteSize: number
}

/**
 * The clips to remove, oldest first, so that what stays plus `incomingBytes` fits in `shareBytes`. `held` is in
 * age order (oldest first); nothing is removed when everything already fits.
 */
export const oldestToRemove = <C extends HeldClip>(
  held: ReadonlyArray<C>,
  incomingBytes: number,
  shareBytes: number
): ReadonlyArray<C> => {
  let used = held.reduce((sum, clip) => sum + clip.byteSize, 0) + incomingBytes
  const removed: Array<C> = []
  for (const clip of held) {
    if (used <= shareBytes) break
    removed.push(clip)
    used -= clip.byteSize
  }
  return removed
}
