import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { NotFound } from "../domain/Errors.js"
import { CurrentWorkspace, inWorkspace } from "../domain/Principal.js"
import { blobResponse } from "../http/FileResponses.js"
import { BlobStorage } from "../storage/BlobStorage.js"
import { requireIntact } from "../storage/Integrity.js"
import { MediaLibrary } from "./MediaLibrary.js"
import { uploadRoute } from "./UploadRoute.js"

/** Pictures and fonts are shown as they are; SVG gets no script and no outside fetches. */
const previewHeaders = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"
}

export const MediaHttpLive = HttpApiBuilder.group(ClipwrightApi, "media", (handlers) =>
  Effect.gen(function*() {
    const library = yield* MediaLibrary
    return handlers
      .handle("upload", ({ payload, request }) =>
        uploadRoute(
          request,
          Effect.flatMap(CurrentWorkspace, (p) => library.upload(p, payload))
        ))
      .handle("list", () => inWorkspace(library.list))
      .handle("rename", ({ path, payload }) =>
        inWorkspace((workspaceId) => library.rename(workspaceId, path.id, payload.name)))
      .handle("delete", ({ path }) =>
        inWorkspace((workspaceId) => library.remove(workspaceId, path.id)))
      .handle("uses", ({ path }) => inWorkspace((workspaceId) => library.uses(workspaceId, path.id)))
  }))

/** Signed previews: no bearer is read. The bytes are checked against the file's sha256 before they are sent. */
export const MediaPreviewHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "mediaPreview",
  (handlers) =>
    Effect.gen(function*() {
      const library = yield* MediaLibrary
      const storage = yield* BlobStorage
      return handlers.handle("preview", ({ path, urlParams }) =>
        library.previewFile(path.id, urlParams.exp ?? "", urlParams.sig ?? "").pipe(
          Effect.flatMap((row) =>
            requireIntact(storage, row.blobKey, row.sha256, `media file ${path.id}`).pipe(
              Effect.zipRight(blobResponse(row.blobKey, {
                contentType: row.mimeType,
                disposition: "inline",
                filename: row.name,
                etag: row.sha256,
                cacheControl: "private, max-age=3600"
              }))
            )
          ),
          Effect.map((response) =>
            HttpServerResponse.setHeaders(response, previewHeaders)
          ),
          Effect.provideService(BlobStorage, storage),
          Effect.catchTag("BlobNotFound", () => Effect.fail(new NotFound({ message: `No media file ${path.id}.` })))
        ))
    })
)
