import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, NotFound, SchemaValidation } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { IdPath } from "../../http/ApiPaths.js"
import { AssetMetadata, RenderedClip } from "./RenderedClip.js"

/** The rendered clips a workspace holds and their asset metadata. */
export class RenderedClipsApi extends HttpApiGroup.make("renderedClips")
  .add(
    HttpApiEndpoint.get("renders", "/media/renders")
      .addSuccess(Schema.Struct({ clips: Schema.Array(RenderedClip) }))
      .annotateContext(
        doc(
          "List rendered clips",
          "The rendered clips storage holds (kept, not removed), newest first; `url` is signed for about an hour."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("deleteRender", "/media/renders/:id/delete")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ deleted: Schema.Literal(true) }))
      .annotateContext(
        doc(
          "Delete a rendered clip's file",
          "Deletes a rendered clip's file; its record stays, marked removed. Refused with 409 while `needed`. " +
            "A clip already removed or of another workspace: 404."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("asset", "/assets/:id")
      .setPath(IdPath)
      .addSuccess(AssetMetadata)
      .annotateContext(
        doc(
          "Show a rendered clip",
          "Metadata of a rendered clip with a signed download URL (about one hour; `expiresAt`). A media library id, " +
            "another workspace's clip or a removed one: 404."
        )
      )
  )
  .addError(SchemaValidation)
  .addError(NotFound)
  .addError(Conflict)
  .pipe(workspaceGroup("Storage", "Rendered clips held in storage: list them, look one up, delete its file."))
{}
