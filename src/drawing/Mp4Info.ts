/** Reads an MP4's header boxes in JS (no ffprobe): duration, tracks, frame count, H.264 profile. */
import { open } from "node:fs/promises"

export interface AvcConfig {
  readonly profile: number
  readonly profileName: string
  readonly level: number
  /** The whole avcC record (SPS and PPS included) as hex: equal records mean stream copy can join two files. */
  readonly record: string
}

export interface Mp4Track {
  readonly handler: string
  readonly kind: "video" | "audio" | "other"
  readonly codec: string
  readonly timescale: number
  readonly durationMs: number
  readonly samples: number
  readonly width?: number
  readonly height?: number
  /** Frames per second from the sample table (video; constant frame rate assumed). */
  readonly fps?: number
  readonly avc?: AvcConfig
  /** Audio sample rate (Hz) and channel count from the sample entry. */
  readonly sampleRate?: number
  readonly channels?: number
}

export interface Mp4Info {
  readonly durationMs: number
  readonly timescale: number
  /** The moov box comes before mdat, so players can start before the whole file arrived. */
  readonly faststart: boolean
  readonly tracks: ReadonlyArray<Mp4Track>
  readonly video?: Mp4Track
}

interface Box {
  readonly type: string
  readonly start: number
  readonly body: number
  readonly end: number
}

const boxes = (buf: Buffer, from: number, to: number): Array<Box> => {
  const out: Array<Box> = []
  let at = from
  while (at + 8 <= to) {
    let size = buf.readUInt32BE(at)
    const type = buf.toString("latin1", at + 4, at + 8)
    let body = at + 8
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(at + 8))
      body = at + 16
    } else if (size === 0) size = to - at
    if (size < 8 || at + size > to) break
    out.push({ type, start: at, body, end: at + size })
    at += size
  }
  return out
}

const child = (buf: Buffer, parent: Box, type: string, skip = 0): Box | undefined =>
  boxes(buf, parent.body + skip, parent.end).find((b) => b.type === type)

const path = (buf: Buffer, parent: Box, types: ReadonlyArray<string>): Box | undefined =>
  types.reduce<Box | undefined>((b, t) => (b === undefined ? undefined : child(buf, b, t)), parent)

/** Timescale and duration of an mvhd or mdhd box (versions 0 and 1). */
const timing = (buf: Buffer, box: Box, timescaleAt0: number) => {
  const v1 = buf.readUInt8(box.body) === 1
  const ts = v1 ? box.body + 4 + 16 : box.body + timescaleAt0
  const timescale = buf.readUInt32BE(ts)
  const duration = v1 ? Number(buf.readBigUInt64BE(ts + 4)) : buf.readUInt32BE(ts + 4)
  return { timescale, durationMs: timescale === 0 ? 0 : (duration * 1000) / timescale }
}

const profileNames: Readonly<Record<number, string>> = {
  66: "Baseline",
  77: "Main",
  88: "Extended",
  100: "High",
  110: "High 10",
  122: "High 4:2:2",
  244: "High 4:4:4"
}

const track = (buf: Buffer, trak: Box): Mp4Track | undefined => {
  const mdia = child(buf, trak, "mdia")
  const mdhd = mdia && child(buf, mdia, "mdhd")
  const hdlr = mdia && child(buf, mdia, "hdlr")
  const stbl = mdia && path(buf, mdia, ["minf", "stbl"])
  if (mdhd === undefined || hdlr === undefined || stbl === undefined) return undefined
  const { timescale, durationMs } = timing(buf, mdhd, 12)
  const handler = buf.toString("latin1", hdlr.body + 8, hdlr.body + 12)
  const stsz = child(buf, stbl, "stsz")
  const samples = stsz === undefined ? 0 : buf.readUInt32BE(stsz.body + 8)
  const stsd = child(buf, stbl, "stsd")
  const entry = stsd === undefined ? undefined : boxes(buf, stsd.body + 8, stsd.end)[0]
  const kind = handler === "vide" ? "video" : handler === "soun" ? "audio" : "other"
  const base = { handler, kind, codec: entry?.type ?? "", timescale, durationMs, samples } as const
  if (kind === "audio" && entry !== undefined && entry.end - entry.body >= 28) {
    const sampleRate = buf.readUInt32BE(entry.body + 24) >>> 16
    return { ...base, channels: buf.readUInt16BE(entry.body + 16), sampleRate }
  }
  if (kind !== "video" || entry === undefined) return base
  const width = buf.readUInt16BE(entry.body + 24)
  const height = buf.readUInt16BE(entry.body + 26)
  const stts = child(buf, stbl, "stts")
  const delta = stts !== undefined && buf.readUInt32BE(stts.body + 4) > 0 ? buf.readUInt32BE(stts.body + 12) : 0
  const avcC = boxes(buf, entry.body + 78, entry.end).find((b) => b.type === "avcC")
  const profile = avcC === undefined ? undefined : buf.readUInt8(avcC.body + 1)
  const level = avcC === undefined ? 0 : buf.readUInt8(avcC.body + 3)
  return {
    ...base,
    width,
    height,
    ...(delta > 0 ? { fps: timescale / delta } : {}),
    ...(avcC === undefined || profile === undefined
      ? {}
      : {
        avc: {
          profile,
          profileName: profileNames[profile] ?? `profile ${profile}`,
          level,
          record: buf.toString("hex", avcC.body, avcC.end)
        }
      })
  }
}

/** Parses a moov box held in memory (the buffer starts at the box header). */
export const parseMoov = (moov: Buffer, faststart: boolean): Mp4Info => {
  const root: Box = { type: "moov", start: 0, body: moov.readUInt32BE(0) === 1 ? 16 : 8, end: moov.length }
  const mvhd = child(moov, root, "mvhd")
  if (mvhd === undefined) throw new Error("mp4: no mvhd box")
  const { timescale, durationMs } = timing(moov, mvhd, 12)
  const tracks = boxes(moov, root.body, root.end)
    .filter((b) => b.type === "trak")
    .map((t) => track(moov, t))
    .filter((t): t is Mp4Track => t !== undefined)
  const video = tracks.find((t) => t.kind === "video")
  return { durationMs, timescale, faststart, tracks, ...(video === undefined ? {} : { video }) }
}

/** Reads only the box headers and the moov box of a file (fast even for large files). */
export const readMp4Info = async (file: string): Promise<Mp4Info> => {
  const fh = await open(file, "r")
  try {
    const { size } = await fh.stat()
    const head = Buffer.alloc(16)
    let at = 0
    let sawMdat = false
    while (at + 8 <= size) {
      await fh.read(head, 0, 16, at)
      let boxSize = head.readUInt32BE(0)
      const type = head.toString("latin1", 4, 8)
      if (boxSize === 1) boxSize = Number(head.readBigUInt64BE(8))
      else if (boxSize === 0) boxSize = size - at
      if (boxSize < 8) break
      if (type === "moov") {
        const moov = Buffer.alloc(boxSize)
        await fh.read(moov, 0, boxSize, at)
        return parseMoov(moov, !sawMdat)
      }
      if (type === "mdat") sawMdat = true
      at += boxSize
    }
    throw new Error("mp4: no moov box")
  } finally {
    await fh.close()
  }
}
