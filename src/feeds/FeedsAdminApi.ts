import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { NotFound } from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { adminGroup } from "../http/ApiGroups.js"
import { AccountPath } from "../identity/AdminApi.js"
import { Entitlements } from "./Feed.js"

/** The operator's say over which shipped sources a workspace may switch on. */
export class FeedsAdminApi extends HttpApiGroup.make("adminFeeds")
  .add(
    HttpApiEndpoint.put("setEntitlements", "/workspaces/:accountId/entitlements")
      .setPath(AccountPath)
      .setPayload(Entitlements)
      .addSuccess(Entitlements)
      .addError(NotFound)
      .annotateContext(
        doc(
          "Set a workspace's feed entitlements",
          "Replaces the shipped sources the workspace is entitled to with `sources` (slugs) and answers the set now " +
            "in force. A new workspace is entitled to every source included by default. An unknown slug is 400 " +
            "naming `/sources/<i>`; an unknown workspace 404."
        )
      )
  )
  .pipe(adminGroup)
{}
