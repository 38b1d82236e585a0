import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, NotFound, SchemaValidation } from "../../domain/Errors.js"
import { Authentication } from "../../http/Security.js"
import { AssetMetadata, RenderedClip } from "./RenderedClip.js"

const IdPath = Schema.Struct({ id: Schema.String })

/** The rendered clips a workspace holds and their asset metadata. */
export class RenderedClipsApi extends HttpApiGroup.make("renderedClips")
  .add(
    HttpApiEndpoint.get("renders", "/media/renders")
      .annotate(OpenApi.Summary, "List rendered clips")
      .addSuccess(Schema.Struct({ clips: Schema.Array(RenderedClip) }))
      .annotate(
        OpenApi.Description,
        "The rendered clips storage holds (kept, not removed), newest first; `url` is signed for about an hour."
      )
  )
  .add(
    HttpApiEndpoint.post("deleteRender", "/media/renders/:id/delete")
      .annotate(OpenApi.Summary, "Delete a rendered clip's file")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ deleted: Schema.Literal(true) }))
      .annotate(
        OpenApi.Description,
        "Deletes a rendered clip's file; its record stays, marked removed. Refused with 409 while `needed`. " +
          "A clip already removed or of another workspace: 404."
      )
  )
  .add(
    HttpApiEndpoint.get("asset", "/assets/:id")
      .annotate(OpenApi.Summary, "Show a rendered clip")
      .setPath(IdPath)
      .addSuccess(AssetMetadata)
      .annotate(
        OpenApi.Description,
        "Metadata of a rendered clip with a signed download URL (about one hour; `expiresAt`). A media library id, " +
          "another workspace's clip or a removed one: 404."
      )
  )
  .addError(SchemaValidation)
  .addError(NotFound)
  .addError(Conflict)
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Storage")
  .annotate(OpenApi.Description, "Rendered clips held in storage: list them, look one up, delete its file.")
{}
