import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { NotFound, SchemaValidation } from "../domain/Errors.js"
import { AdminAuthentication } from "../http/Security.js"
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
      .annotate(OpenApi.Summary, "Set a workspace's feed entitlements")
      .annotate(
        OpenApi.Description,
        "Replaces the shipped sources the workspace is entitled to with `sources` (slugs) and answers the set now " +
          "in force. A new workspace is entitled to every source included by default. An unknown slug is 400 " +
          "naming `/sources/<i>`; an unknown workspace 404."
      )
  )
  .addError(SchemaValidation)
  .middleware(AdminAuthentication)
  .prefix("/admin")
  .annotate(OpenApi.Title, "Admin")
  .annotate(OpenApi.Description, "Operator routes (see docs/operating.md); `Authorization: Bearer $ADMIN_TOKEN`.")
{}
