import { Context, Effect, Layer, Option } from "effect"
import { detailAt, NotFound } from "../domain/Errors.js"
import type { ErrorDetail } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import type { BrandMarks, Insets } from "../drawing/Scene.js"
import { MediaFiles } from "../media/MediaFiles.js"
import { BlobStorage } from "../storage/BlobStorage.js"
import { filesFor, marksFor, safeAreaOf } from "./BrandLookMap.js"
import type { LocalFile } from "./BrandLookMap.js"
import { BrandRepo } from "./BrandRepo.js"
import type { SlotFile } from "./BrandStyle.js"

export interface BrandRef {
  readonly id: string
  readonly name: string
}

/** What a scene takes beyond the build and the content: the brand's marks, its safe area, the pictures' files. */
export interface SceneExtras {
  readonly brand?: BrandMarks
  /** The brand's safe area for the ratio, in output pixels. */
  readonly safeArea?: Insets
  /** `media://…` picture address → local file. */
  readonly pictures: ReadonlyMap<string, string>
}

const MEDIA = "media://"

/** Every picture address of a content document with its JSON pointer segments (default copy and every locale's). */
const pictureRefs = (data: unknown): Array<{ readonly url: string; readonly at: ReadonlyArray<string | number> }> => {
  const inClip = (clipData: unknown, at: ReadonlyArray<string | number>) => {
    const images = (clipData as { images?: unknown } | undefined)?.images
    if (!Array.isArray(images)) return []
    return images.flatMap((img: unknown, i) => {
      const url = (img as { url?: unknown } | null)?.url
      return typeof url === "string" ? [{ url, at: [...at, "images", i, "url"] }] : []
    })
  }
  const doc = (data ?? {}) as { clipData?: unknown; locales?: Record<string, { clipData?: unknown }> }
  const locales = typeof doc.locales === "object" && doc.locales !== null ? Object.entries(doc.locales) : []
  return [
    ...inClip(doc.clipData, ["data", "clipData"]),
    ...locales.flatMap(([locale, copy]) => inClip(copy?.clipData, ["data", "locales", locale, "clipData"]))
  ]
}

/**
 * The brand a render wears and the library files it draws. The look is resolved at draw time from the brand id the
 * render package stores (`{ id, name }`): a render drawn again later takes the brand as it is then. A deleted brand
 * keeps its row, so a job submitted before the deletion still draws with it.
 */
const make = Effect.gen(function*() {
  const brands = yield* BrandRepo
  const media = yield* MediaFiles
  const blobs = yield* BlobStorage

  const notFound = (brandId: string) =>
    new NotFound({ message: `No brand ${brandId}.`, details: [detailAt(["brandId"], "no such brand")] })

  /** A live brand of the workspace (404 naming `/brandId` for a missing, deleted or another workspace's brand). */
  const find = Effect.fn("BrandLooks.find")(function*(workspaceId: WorkspaceId, brandId: string) {
    const row = yield* brands.findLive(workspaceId, brandId)
    if (Option.isNone(row)) return yield* notFound(brandId)
    return { id: row.value.id, name: row.value.name } satisfies BrandRef
  })

  /**
   * A stored file the drawer can read until the caller's scope closes (a copy when files live in an object store);
   * none when the library row or its file is gone.
   */
  const readable = (blobKey: string) =>
    blobs.readableFile(blobKey).pipe(Effect.catchTag("BlobNotFound", () => Effect.succeed(undefined)))

  const localFile = (workspaceId: WorkspaceId, id: string) =>
    Effect.flatMap(media.find(workspaceId, id), (row) =>
      Option.match(row, {
        onNone: () => Effect.succeed(undefined),
        onSome: (r) =>
          Effect.map(readable(r.blobKey), (path): LocalFile | undefined =>
            path === undefined ? undefined : { path, sha256: r.sha256 })
      }))

  /** The stored file of a library picture by `media://<id>` or `media://<name>`; only images count. */
  const picture = (workspaceId: WorkspaceId, url: string) =>
    Effect.gen(function*() {
      if (!url.startsWith(MEDIA)) return undefined
      const ref = url.slice(MEDIA.length)
      const row = yield* media.findByRef(workspaceId, ref)
      return Option.isNone(row) || row.value.kind !== "Image" ? undefined : row.value.blobKey
    })

  /** Details for every picture address of the content that the workspace's library does not hold (submit time). */
  const pictureProblems = Effect.fn("BrandLooks.pictureProblems")(function*(workspaceId: WorkspaceId, data: unknown) {
    const problems: Array<ErrorDetail> = []
    for (const { at, url } of pictureRefs(data)) {
      if ((yield* picture(workspaceId, url)) === undefined) {
        problems.push(detailAt(at, `no picture ${url} in the media library`, "media"))
      }
    }
    return problems
  })

  /**
   * Brand marks, safe area and picture files for one output (ratio × locale) of a render, at draw time. The files stay
   * readable until the caller's scope closes.
   */
  const extrasFor = Effect.fn("BrandLooks.extrasFor")(function*(
    workspaceId: WorkspaceId,
    brandId: string | null,
    content: unknown,
    output: { readonly ratio: string; readonly locale: string; readonly width: number; readonly height: number }
  ) {
    const pictures = new Map<string, string>()
    for (const { url } of pictureRefs(content)) {
      const key = pictures.has(url) ? undefined : yield* picture(workspaceId, url)
      const path = key === undefined ? undefined : yield* readable(key)
      if (path !== undefined) pictures.set(url, path)
    }
    const row = brandId === null ? undefined : Option.getOrUndefined(yield* brands.find(workspaceId, brandId))
    if (row === undefined) return { pictures } satisfies SceneExtras
    const found = new Map<string, LocalFile>()
    for (const file of filesFor(row.style, output.ratio, output.locale)) {
      const local = found.has(file.assetId) ? undefined : yield* localFile(workspaceId, file.assetId)
      if (local !== undefined) found.set(file.assetId, local)
    }
    const fileAt = (f: SlotFile | null | undefined) => f === null || f === undefined ? undefined : found.get(f.assetId)
    const brand = marksFor(row, output.ratio, output.locale, fileAt)
    const safeArea = safeAreaOf(row.style, output.ratio, output.width, output.height)
    return { brand, pictures, ...(safeArea === undefined ? {} : { safeArea }) } satisfies SceneExtras
  })

  return { find, pictureProblems, extrasFor }
})

export class BrandLooks extends Context.Tag("clipwright/brands/BrandLooks")<
  BrandLooks,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(BrandLooks, make)
}
