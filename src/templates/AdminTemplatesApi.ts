import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { NotFound } from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { adminGroup } from "../http/ApiGroups.js"
import { AccountPath } from "../identity/AdminApi.js"
import { ClearanceBody, ClearedTemplates } from "./Clearance.js"

/** The operator's template clearance route: it changes which templates a workspace may use, so it lives with them. */
export class AdminTemplatesApi extends HttpApiGroup.make("adminTemplates")
  .add(
    HttpApiEndpoint.put("setTemplates", "/workspaces/:accountId/templates")
      .annotateContext(
        doc(
          "Clear templates for a workspace",
          "Restricts the workspace to these templates (`templateIds`, the whole list; `[]` for none), or lifts the " +
            "restriction with `null`. A new workspace is cleared for every template. A direct export, batch or " +
            "keyframes naming a template the workspace is not cleared for is 409 `template_not_approved` at " +
            "`/templateId`. Answers the templates cleared now (`restricted` false: every template). An unknown " +
            "template is 400 naming `/templateIds/<i>`; an unknown workspace 404."
        )
      )
      .setPath(AccountPath)
      .setPayload(ClearanceBody)
      .addSuccess(ClearedTemplates)
      .addError(NotFound)
  )
  .pipe(adminGroup)
{}
