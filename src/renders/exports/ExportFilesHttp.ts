import { Headers, HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { NotFound } from "../../domain/Errors.js"
import { blobResponse } from "../../http/FileResponses.js"
import { BlobStorage, type BlobStorageService } from "../../storage/BlobStorage.js"
import { requireIntact } from "../../storage/Integrity.js"
import { ExportFiles, type VideoFile } from "./ExportFiles.js"

/**
 * An exported mp4, inline under its descriptive name; byte ranges only when the file says so (kept videos). The bytes
 * are checked against the clip's sha256 first: a damaged file is 502 `checksum_mismatch`, never sent.
 */
export const videoResponse = (storage: BlobStorageService, file: VideoFile) =>
  requireIntact(storage, file.blobKey, file.sha256, "the video of this export").pipe(
    Effect.zipRight(blobResponse(file.blobKey, {
      contentType: "video/mp4",
      disposition: "inline",
      filename: file.filename,
      etag: file.etag,
      cacheControl: "private",
      ...(file.ranges ? {} : { requestHeaders: Headers.empty })
    })),
    Effect.map((response) => file.ranges ? response : HttpServerResponse.setHeader(response, "accept-ranges", "none")),
    Effect.provideService(BlobStorage, storage),
    Effect.catchTag("BlobNotFound", () => Effect.fail(new NotFound({ message: "The video of this export is gone." })))
  )

/** Export links: no bearer is read; the key in the link is checked by `ExportFiles.linkedFile`. */
export const ExportFilesHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "exportFiles",
  (handlers) =>
    Effect.gen(function*() {
      const files = yield* ExportFiles
      const storage = yield* BlobStorage
      return handlers.handle(
        "linked",
        ({ path, urlParams }) =>
          Effect.flatMap(files.linkedFile(path.jobId, urlParams.key), (file) => videoResponse(storage, file))
      )
    })
)
