import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { blobResponse } from "../../http/FileResponses.js"
import { BlobStorage } from "../../storage/BlobStorage.js"
import { ReferenceClips } from "./ReferenceClips.js"

export const ReferenceClipsHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "referenceClips",
  (handlers) =>
    Effect.gen(function*() {
      const references = yield* ReferenceClips
      const blobs = yield* BlobStorage
      return handlers
        .handle("referenceClip", ({ path, urlParams }) =>
          references.clip(path.templateId, path.ratio, urlParams).pipe(
            Effect.flatMap((clip) =>
              blobResponse(clip.key, {
                contentType: "video/mp4",
                disposition: "inline",
                filename: `${path.templateId}-${clip.version}-${path.ratio}.mp4`,
                etag: clip.sha256,
                cacheControl: "private, no-cache"
              }).pipe(Effect.map(HttpServerResponse.setHeader("x-template-version", clip.version)))
            ),
            // The blob was there a moment ago; gone now means the store lost it: a fault, not a client error.
            Effect.catchTag("BlobNotFound", Effect.die),
            Effect.provideService(BlobStorage, blobs)
          ))
    })
)
