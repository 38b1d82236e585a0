import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { AssetMetadata, RenderedClip, SplitBody, StorageAnswer } from "./RenderedClip.js"
import { Conflict, NotFound, SchemaValidation } from "../domain/Errors.js"
import { Authentication } from "../http/Security.js"

const IdPath = Schema.Struct({ id: Schema.String })

/** Storage of a workspace: the media/clips split, the rendered clips it holds and their asset metadata. */
export class StorageApi extends HttpApiGroup.make("storage")
  .add(
    HttpApiEndpoint.post("split", "/storage/split")
      .setPayload(SplitBody)
      .addSuccess(StorageAnswer)
      .annotate(
        OpenApi.Description,
        "Sets the media library's share of storage (a whole percent within `split`); rendered clips get the rest. " +
          "Kept clips beyond the new clips share are removed, oldest first; media over their new share: 409 naming " +
          "the bytes. Answers `{ storage }`, the new storage block."
      )
  )
  .add(
    HttpApiEndpoint.get("renders", "/media/renders")
      .addSuccess(Schema.Struct({ clips: Schema.Array(RenderedClip) }))
      .annotate(
        OpenApi.Description,
        "The rendered clips storage holds (kept, not removed), newest first; `url` is signed for about an hour."
      )
  )
  .add(
    HttpApiEndpoint.post("deleteRender", "/media/renders/:id/delete")
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
{}
