import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import {
  Conflict,
  InvalidStateTransition,
  NotFound,
  SchemaValidation,
  TemplateNotApproved,
  UnknownTemplate
} from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { IdPath } from "../http/ApiPaths.js"
import { ChangePackageBody, CreatePackageBody, CreateQueueBody, Package, Queue, UpdateQueueBody } from "./PostList.js"

const PackagePath = Schema.Struct({ id: Schema.String, packageId: Schema.String })
const QueueAnswer = Schema.Struct({ queue: Queue })
const PackageAnswer = Schema.Struct({ package: Package })

const packageRules = "`title` 1 to 120 characters; `templateId` a template cleared for the workspace (unknown: 404 " +
  "`unknown_template`; not cleared: 409 `template_not_approved`); `templateVariant` one of its variants (default the " +
  "first); `templateVersion` an exact major.minor.patch with a build, or `latest` (absent and `latest` are stored as " +
  "null: the newest build when it fires); `scheduledFor` an ISO instant or `now` (more than one minute in the past: " +
  "400 `schema_validation` at `/scheduledFor`); `data` the template's input document, checked against the build it " +
  "would draw with (400 `schema_validation`, each problem at its path under `/data`); language copies go under " +
  "`data.locales`. Post text (`metaData`) is written per listening channel when it fires (caption length by surface, " +
  "copy by language): a list with no listening channel makes no posts and so gives its posts no text."

export class PostListsApi extends HttpApiGroup.make("queues")
  .add(
    HttpApiEndpoint.get("list", "/queues")
      .addSuccess(Schema.Struct({ queues: Schema.Array(Queue) }))
      .annotateContext(
        doc(
          "List post lists",
          "Every post list of the workspace, oldest first, whole: each with its posts ordered by `scheduledFor`, " +
            "`subscribers` (live channels subscribed) and `listeners` (those a firing post reaches: channel and " +
            "subscription enabled)."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/queues")
      .setPayload(CreateQueueBody)
      .addSuccess(QueueAnswer, { status: 201 })
      .addError(Conflict)
      .annotateContext(
        doc("Create a post list", "`name` 1 to 80 characters, unique in the workspace (in use: 409 `conflict`).")
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/queues/:id")
      .setPath(IdPath)
      .setPayload(UpdateQueueBody)
      .addSuccess(QueueAnswer)
      .addError(Conflict)
      .addError(NotFound)
      .annotateContext(
        doc(
          "Change a post list",
          "Renames it (`name`, unique: 409) or switches it (`enabled`). A disabled list fires nothing; switched on " +
            "again, its posts whose time passed meanwhile fire at once (late, not skipped), the others at their time. " +
            "Answers `{ queue }`."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("delete", "/queues/:id/delete")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), removedFromChannels: Schema.Number }))
      .addError(NotFound)
      .annotateContext(
        doc(
          "Delete a post list",
          "Removes the list and its posts (posts already fired stay in the pipeline) and unsubscribes every channel " +
            "from it; `removedFromChannels` counts them."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("addPackage", "/queues/:id/packages")
      .setPath(IdPath)
      .setPayload(CreatePackageBody)
      .addSuccess(PackageAnswer, { status: 201 })
      .addError(NotFound)
      .addError(UnknownTemplate)
      .addError(TemplateNotApproved)
      .annotateContext(
        doc(
          "Schedule a post",
          `Adds a post (package) that fires once at \`scheduledFor\` and becomes an event like any other (origin ` +
            `\`manual\`), one job per listening channel, each drawing the post's template, variant and version. ` +
            `${packageRules}`
        )
      )
  )
  .add(
    HttpApiEndpoint.patch("changePackage", "/queues/:id/packages/:packageId")
      .setPath(PackagePath)
      .setPayload(ChangePackageBody)
      .addSuccess(PackageAnswer)
      .addError(NotFound)
      .addError(UnknownTemplate)
      .addError(TemplateNotApproved)
      .addError(InvalidStateTransition)
      .annotateContext(
        doc(
          "Change a scheduled post",
          "Changes `title`, `scheduledFor`, `templateId`, `templateVariant`, `templateVersion`, `data`, or cancels it " +
            "(`state: CANCELLED`). Only SCHEDULED posts change: a fired or cancelled one is 409 " +
            "`invalid_state_transition` (a cancel sent again changes nothing). A new template starts from its first variant and newest build unless they " +
            "are sent; every change (a new time too) checks the content again against the build it would draw with. " +
            "A new time moves its timer. Answers `{ package }`."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("removePackage", "/queues/:id/packages/:packageId/delete")
      .setPath(PackagePath)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true) }))
      .addError(NotFound)
      .annotateContext(
        doc(
          "Delete a post",
          "Removes the post from its list; a scheduled one never fires. A fired post's event and jobs stay."
        )
      )
  )
  .addError(SchemaValidation)
  .pipe(
    workspaceGroup(
      "Post lists",
      "Post lists (queues): named lists of scheduled posts (packages) that people write; each post chooses its own " +
        "template and fires once, at its time, to the channels subscribed to its list."
    )
  )
{}
