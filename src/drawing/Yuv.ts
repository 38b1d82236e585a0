/** RGBA → I420 (BT.709, limited range) to match the colour tags written into the MP4. */

const S = 1 << 16
const k = (v: number) => Math.round(v * S)
const yScale = 219 / 255
const cScale = 224 / 255
const YR = k(0.2126 * yScale)
const YG = k(0.7152 * yScale)
const YB = k(0.0722 * yScale)
const UR = k(-0.2126 / 1.8556 * cScale)
const UG = k(-0.7152 / 1.8556 * cScale)
const UB = k(0.5 * cScale)
const VR = k(0.5 * cScale)
const VG = k(-0.7152 / 1.5748 * cScale)
const VB = k(-0.0722 / 1.5748 * cScale)

export interface Yuv {
  readonly y: number
  readonly u: number
  readonly v: number
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v)

export const yuvOf = (r: number, g: number, b: number): Yuv => ({
  y: clamp(((YR * r + YG * g + YB * b + S / 2) >> 16) + 16),
  u: clamp(((UR * r + UG * g + UB * b + S / 2) >> 16) + 128),
  v: clamp(((VR * r + VG * g + VB * b + S / 2) >> 16) + 128)
})

export const frameBytes = (width: number, height: number, alpha = false): number => width * height * (alpha ? 5 : 3) / 2

/** Writes rows [y0, y1) of an RGBA frame into a yuv frame in dst (the shape of both converters below). */
type FrameRows = (
  src: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  dst: Uint8Array,
  y0?: number,
  y1?: number,
  band?: boolean
) => void

/**
 * Copies the alpha of rows [y0, y1) of an RGBA frame (not premultiplied) into the A plane of a yuva420p frame in
 * dst, after the I420 planes; `src` holds the frame's rows from y0 on when `band` is set.
 */
export const alphaPlane: FrameRows = (src, width, height, dst, y0 = 0, y1 = height, band = false) => {
  const aBase = frameBytes(width, height) + y0 * width
  const from = band ? 0 : y0 * width
  const n = (y1 - y0) * width
  for (let i = 0; i < n; i++) dst[aBase + i] = src[(from + i) * 4 + 3]!
}

/**
 * Converts rows [y0, y1) (even bounds) of an opaque RGBA frame (even width) into I420 planes in dst;
 * the other rows of dst are left as they are. `src` holds the frame's rows from y0 on when `band` is set.
 */
export const rgbaToI420: FrameRows = (src, width, height, dst, y0 = 0, y1 = height, band = false) => {
  const aligned = src.byteOffset % 4 === 0 ? src : Uint8Array.from(src)
  const px = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >> 2)
  const shift = band ? y0 * width : 0
  const cw = width >> 1
  const uBase = width * height
  const vBase = uBase + cw * (height >> 1)
  const half = S / 2
  const quarterHalf = S * 2
  for (let cy = y0 >> 1; cy < y1 >> 1; cy++) {
    const row0 = cy * 2 * width
    const row1 = row0 + width
    let ci = cy * cw
    for (let x = 0; x < width; x += 2, ci++) {
      // Little-endian: R is the low byte of each RGBA word.
      const s0 = row0 + x - shift
      const s1 = row1 + x - shift
      const a = px[s0]!, b = px[s0 + 1]!, c = px[s1]!, d = px[s1 + 1]!
      const r0 = a & 255, g0 = (a >>> 8) & 255, b0 = (a >>> 16) & 255
      const r1 = b & 255, g1 = (b >>> 8) & 255, b1 = (b >>> 16) & 255
      const r2 = c & 255, g2 = (c >>> 8) & 255, b2 = (c >>> 16) & 255
      const r3 = d & 255, g3 = (d >>> 8) & 255, b3 = (d >>> 16) & 255
      dst[row0 + x] = ((YR * r0 + YG * g0 + YB * b0 + half) >> 16) + 16
      dst[row0 + x + 1] = ((YR * r1 + YG * g1 + YB * b1 + half) >> 16) + 16
      dst[row1 + x] = ((YR * r2 + YG * g2 + YB * b2 + half) >> 16) + 16
      dst[row1 + x + 1] = ((YR * r3 + YG * g3 + YB * b3 + half) >> 16) + 16
      const r = r0 + r1 + r2 + r3
      const g = g0 + g1 + g2 + g3
      const bl = b0 + b1 + b2 + b3
      dst[uBase + ci] = ((UR * r + UG * g + UB * bl + quarterHalf) >> 18) + 128
      dst[vBase + ci] = ((VR * r + VG * g + VB * bl + quarterHalf) >> 18) + 128
    }
  }
}

/** Converts an opaque w×h RGBA block into the I420 planes of a width-wide frame at (x, y); x, y, w, h even. */
export const rgbaBlockToI420 = (
  src: Uint8Array,
  w: number,
  h: number,
  dst: Uint8Array,
  width: number,
  height: number,
  x: number,
  y: number
): void => {
  const aligned = src.byteOffset % 4 === 0 ? src : Uint8Array.from(src)
  const px = new Uint32Array(aligned.buffer, aligned.byteOffset, w * h)
  const cw = width >> 1
  const uBase = width * height
  const vBase = uBase + cw * (height >> 1)
  for (let by = 0; by < h; by += 2) {
    const d0 = (y + by) * width + x
    const d1 = d0 + width
    let ci = ((y + by) >> 1) * cw + (x >> 1)
    for (let bx = 0; bx < w; bx += 2, ci++) {
      const s = by * w + bx
      const a = px[s]!, b = px[s + 1]!, c = px[s + w]!, d = px[s + w + 1]!
      const r0 = a & 255, g0 = (a >>> 8) & 255, b0 = (a >>> 16) & 255
      const r1 = b & 255, g1 = (b >>> 8) & 255, b1 = (b >>> 16) & 255
      const r2 = c & 255, g2 = (c >>> 8) & 255, b2 = (c >>> 16) & 255
      const r3 = d & 255, g3 = (d >>> 8) & 255, b3 = (d >>> 16) & 255
      dst[d0 + bx] = ((YR * r0 + YG * g0 + YB * b0 + S / 2) >> 16) + 16
      dst[d0 + bx + 1] = ((YR * r1 + YG * g1 + YB * b1 + S / 2) >> 16) + 16
      dst[d1 + bx] = ((YR * r2 + YG * g2 + YB * b2 + S / 2) >> 16) + 16
      dst[d1 + bx + 1] = ((YR * r3 + YG * g3 + YB * b3 + S / 2) >> 16) + 16
      const r = r0 + r1 + r2 + r3
      const g = g0 + g1 + g2 + g3
      const bl = b0 + b1 + b2 + b3
      dst[uBase + ci] = ((UR * r + UG * g + UB * bl + S * 2) >> 18) + 128
      dst[vBase + ci] = ((VR * r + VG * g + VB * bl + S * 2) >> 18) + 128
    }
  }
}

/**
 * Paints an opaque rectangle into I420 planes (and the A plane of a yuva420p frame with `alpha`); x, y, w, h must be
 * even so chroma stays aligned.
 */
export const paintRect = (
  dst: Uint8Array,
  width: number,
  height: number,
  rect: { readonly x: number; readonly y: number; readonly w: number; readonly h: number },
  colour: Yuv,
  alpha = false
): void => {
  if (rect.w <= 0 || rect.h <= 0) return
  if (alpha) {
    const aBase = frameBytes(width, height)
    for (let row = rect.y; row < rect.y + rect.h; row++) {
      const o = aBase + row * width + rect.x
      dst.fill(255, o, o + rect.w)
    }
  }
  const cw = width >> 1
  const uBase = width * height
  const vBase = uBase + cw * (height >> 1)
  for (let row = rect.y; row < rect.y + rect.h; row++) {
    const o = row * width + rect.x
    dst.fill(colour.y, o, o + rect.w)
  }
  for (let row = rect.y >> 1; row < (rect.y + rect.h) >> 1; row++) {
    const o = row * cw + (rect.x >> 1)
    dst.fill(colour.u, uBase + o, uBase + o + (rect.w >> 1))
    dst.fill(colour.v, vBase + o, vBase + o + (rect.w >> 1))
  }
}
