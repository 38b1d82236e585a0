import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"

export const WhoAmI = Schema.Struct({
  accountId: Schema.String,
  accountName: Schema.String,
  scopes: Schema.Array(Schema.String),
  kind: Schema.String
})

export class IdentityApi extends HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.get("whoami", "/whoami")
      .addSuccess(WhoAmI)
      .annotateContext(
        doc("Show the calling key", "The calling key's workspace and permissions; any valid key may call it.")
      )
  )
  .pipe(workspaceGroup("Identity", "The calling key: its workspace and permissions."))
{}
