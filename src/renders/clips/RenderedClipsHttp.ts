import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { NotFound } from "../../domain/Errors.js"
import { inWorkspace } from "../../domain/Principal.js"
import { blobResponse } from "../../http/FileResponses.js"
import { BlobStorage } from "../../storage/BlobStorage.js"
import { requireIntact } from "../../storage/Integrity.js"
import { CLIP_MIME_TYPE } from "./RenderedClip.js"
import { type ClipFile, RenderedClips } from "./RenderedClips.js"

const gone = (id: string) => Effect.fail(new NotFound({ message: `Rendered clip ${id} is gone.` }))

export const RenderedClipsHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "renderedClips",
  (handlers) =>
    Effect.gen(function*() {
      const clips = yield* RenderedClips
      return handlers
        .handle("renders", () => inWorkspace(clips.list))
        .handle("deleteRender", ({ path }) => inWorkspace((workspaceId) => clips.remove(workspaceId, path.id)))
        .handle("asset", ({ path }) => inWorkspace((workspaceId) => clips.metadata(workspaceId, path.id)))
    })
)

/**
 * Signed downloads: no bearer is read; the signature is checked by `RenderedClips.signedFile`. The bytes are checked
 * against the clip's sha256 before they are sent (502 `checksum_mismatch` when they no longer match).
 */
export const AssetFilesHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "assetFiles",
  (handlers) =>
    Effect.gen(function*() {
      const clips = yield* RenderedClips
      const blobs = yield* BlobStorage
      const send = (id: string, file: ClipFile) =>
        requireIntact(blobs, file.blobKey, file.sha256, `rendered clip ${id}`).pipe(
          Effect.zipRight(blobResponse(file.blobKey, {
            contentType: CLIP_MIME_TYPE,
            disposition: "inline",
            filename: `${id}.mp4`,
            etag: file.sha256,
            cacheControl: "private"
          })),
          Effect.provideService(BlobStorage, blobs),
          Effect.catchTag("BlobNotFound", () => gone(id))
        )
      return handlers.handle(
        "download",
        ({ path, urlParams }) =>
          Effect.flatMap(clips.signedFile(path.id, urlParams.exp, urlParams.sig), (file) => send(path.id, file))
      )
    })
)
