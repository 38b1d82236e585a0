import { createHash, randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdir, rename, stat, unlink } from "node:fs/promises"
import { join } from "node:path"
import { RenderInterrupted } from "./RenderError.js"
import { cached, runFfmpeg } from "./Run.js"
import type { BrandBackground, BrandBadge, SceneInput } from "./Scene.js"

/** The first frame of a video as a PNG in `cacheDir`, made once per file version (path, size, modification time). */
export const firstFrame = async (video: string, cacheDir: string, signal?: AbortSignal): Promise<string> => {
  const { mtimeMs, size } = await stat(video)
  const key = createHash("sha256").update(`${video}\n${size}\n${mtimeMs}`).digest("hex").slice(0, 32)
  const out = join(cacheDir, `still-${key}.png`)
  if (existsSync(out)) return out
  return cached(out, async (s) => {
    await mkdir(cacheDir, { recursive: true })
    const tmp = `${out}.${randomBytes(4).toString("hex")}.tmp.png`
    try {
      await runFfmpeg(["-i", video, "-map", "0:v:0", "-frames:v", "1", "-f", "image2", "-c:v", "png", "-y", tmp], s)
      await rename(tmp, out)
      return out
    } finally {
      await unlink(tmp).catch(() => undefined)
    }
  }, signal)
}

/** A still of a video, or undefined when it cannot be read (the mark is then left out, like an unreadable picture). */
const stillOr = async (video: string, cacheDir: string, signal?: AbortSignal) => {
  try {
    return await firstFrame(video, cacheDir, signal)
  } catch (e) {
    if (e instanceof RenderInterrupted) throw e
    return undefined
  }
}

/**
 * The scene the drawer is handed: a video badge or background becomes its first frame (a still picture), since the
 * drawer draws pictures only. With `moving` (a clip, not a keyframe) a readable video stays a video: ffmpeg lays a
 * background under the drawn frames, and the drawer plays a badge in its box (its first frame sizes the box).
 */
export const withStills = async (
  scene: SceneInput,
  cacheDir: string,
  signal?: AbortSignal,
  moving = false
): Promise<SceneInput> => {
  const brand = scene.brand
  if (brand === undefined) return scene
  let badge: BrandBadge | undefined = brand.badge
  let background: BrandBackground | undefined = brand.background
  if (badge?.kind === "video") {
    const still = await stillOr(badge.path, cacheDir, signal)
    badge = still === undefined
      ? undefined
      : moving
      ? { kind: "video", path: badge.path, still }
      : { kind: "image", path: still }
  }
  if (background?.kind === "video") {
    const still = await stillOr(background.path, cacheDir, signal)
    background = still === undefined ? { kind: "color" } : moving ? background : { kind: "image", path: still }
  }
  if (badge === brand.badge && background === brand.background) return scene
  const { badge: _b, background: _g, ...rest } = brand
  return {
    ...scene,
    brand: { ...rest, ...(badge === undefined ? {} : { badge }), ...(background === undefined ? {} : { background }) }
  }
}
