import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { InvalidStateTransition, NotFound, SchemaValidation } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { IdPath } from "../../http/ApiPaths.js"
import { ApprovalPage, ApprovalsParams, Decision, DecisionBody } from "./Approval.js"

/** Approvals: the posts of PER_POST channels waiting for a person, and their decisions. */
export class ApprovalsApi extends HttpApiGroup.make("approvals")
  .add(
    HttpApiEndpoint.get("list", "/approvals")
      .annotateContext(
        doc(
          "List approvals",
          "Paged, newest first; `state` (PENDING, APPROVED, REJECTED) and `channelId` filter. `total` counts the " +
            "approvals matching them, `all` every approval of the workspace, `facets.state` each state (of the channel " +
            "when `channelId` is given). Each approval carries its job (`postGroupId`), channel, template, who decided " +
            "(`decidedBy`: `user:<email>` or `apikey:<id>`) and the note, and its post (title, caption, hashtags, " +
            "surface, when it goes out) with the video's signed asset URL."
        )
      )
      .setUrlParams(ApprovalsParams)
      .addSuccess(ApprovalPage)
  )
  .add(
    HttpApiEndpoint.post("decide", "/approvals/:id")
      .annotateContext(
        doc(
          "Approve or reject",
          "`state` APPROVED (the default) releases the post for hand-over at once; REJECTED stops it. An optional " +
            "`note` (up to 1,000 characters) is kept with who decided (`user:<email>` for a person signed in, " +
            "`apikey:<id>` for a key). Answers the posts decided, the state, the note, who and when. An approval " +
            "decided already is 409 `invalid_state_transition`."
        )
      )
      .setPath(IdPath)
      .setPayload(DecisionBody)
      .addSuccess(Decision)
      .addError(NotFound)
      .addError(InvalidStateTransition)
  )
  .addError(SchemaValidation)
  .pipe(workspaceGroup("Approvals", "Posts of channels with approval PER_POST wait here for a person's decision."))
{}
