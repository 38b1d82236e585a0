import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { ClipwrightApi } from "../Api.js"
import { CurrentWorkspace, inWorkspace } from "../domain/Principal.js"
import { blobResponse } from "../http/FileResponses.js"
import { BlobStorage } from "../storage/BlobStorage.js"
import { catalogueResponse } from "./CatalogueResponse.js"
import { Feeds } from "./Feeds.js"
import { FeedSwitches } from "./FeedSwitches.js"

export const FeedsHttpLive = HttpApiBuilder.group(ClipwrightApi, "feeds", (handlers) =>
  Effect.gen(function*() {
    const feeds = yield* Feeds
    const blobs = yield* BlobStorage
    const switches = yield* FeedSwitches
    return handlers
      .handle("catalogue", () =>
        Effect.gen(function*() {
          const caller = yield* CurrentWorkspace
          const request = yield* HttpServerRequest.HttpServerRequest
          // Without a key the caller is anonymous: no workspace, so `entitled` shows the defaults.
          const workspace = caller.kind === "anonymous" ? Option.none() : Option.some(caller.workspaceId)
          return catalogueResponse(yield* feeds.catalogue(workspace), request.headers["if-none-match"])
        }))
      .handle("list", () => inWorkspace(switches.list))
      .handle("switch", ({ payload }) => inWorkspace((workspaceId) => switches.set(workspaceId, payload)))
      .handle("describeFeed", ({ path }) => feeds.describeFeed(path.feedId))
      .handle("describeFormat", ({ path }) => feeds.describeFormat(path.source, path.format))
      .handle("reference", ({ path }) => feeds.reference(path.feedId))
      .handle("referenceClip", ({ path, urlParams }) =>
        feeds.referenceClip(path.feedId, path.ratio, urlParams).pipe(
          Effect.flatMap((clip) =>
            blobResponse(clip.key, {
              contentType: "video/mp4",
              disposition: "inline",
              filename: `${path.feedId}-${clip.version}-${path.ratio}.mp4`,
              etag: clip.sha256,
              cacheControl: "private, no-cache"
            }).pipe(Effect.map(HttpServerResponse.setHeader("x-preview-version", clip.version)))
          ),
          // The blob was there a moment ago; gone now means the store lost it: a fault, not a client error.
          Effect.catchTag("BlobNotFound", Effect.die),
          Effect.provideService(BlobStorage, blobs)
        ))
  }))
