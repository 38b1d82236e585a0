import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { ReferenceClips } from "../renders/ReferenceClips.js"
import { Templates } from "./Templates.js"
import { BlobStorage } from "../storage/BlobStorage.js"
import { blobResponse } from "../http/FileResponses.js"

export const TemplatesHttpLive = HttpApiBuilder.group(ClipwrightApi, "templates", (handlers) =>
  Effect.gen(function*() {
    const templates = yield* Templates
    const references = yield* ReferenceClips
    const blobs = yield* BlobStorage
    return handlers
      .handle("list", () => templates.list())
      .handle("reference", ({ path }) => templates.reference(path.templateId))
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
      .handle("shelf", () => templates.shelf())
      .handle("describe", ({ path, urlParams }) => templates.describe(path.templateId, urlParams))
  }))
