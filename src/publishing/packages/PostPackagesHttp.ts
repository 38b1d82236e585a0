import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { inWorkspace } from "../../domain/Principal.js"
import { zipResponse } from "../../http/FileResponses.js"
import { PostPackages } from "./PostPackages.js"

export const PostPackagesHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "postPackages",
  (handlers) =>
    Effect.gen(function*() {
      const packages = yield* PostPackages
      const respond = Effect.map(({ archive, filename }: Effect.Effect.Success<ReturnType<typeof packages.ofJob>>) =>
        zipResponse(archive, filename)
      )
      return handlers
        .handle("job", ({ path, urlParams }) =>
          respond(inWorkspace((workspaceId) =>
            packages.ofJob(workspaceId, path.id, urlParams.tz)
          )))
        .handle("post", ({ path, urlParams }) =>
          respond(inWorkspace((workspaceId) =>
            packages.ofPost(workspaceId, path.id, urlParams.tz)
          )))
    })
)
