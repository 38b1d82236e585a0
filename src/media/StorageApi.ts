import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Conflict, SchemaValidation } from "../domain/Errors.js"
import { Authentication } from "../http/Security.js"
import { SplitBody, StorageAnswer } from "./StorageBlock.js"

/** Storage of a workspace: how it is split between the media library and rendered clips. */
export class StorageApi extends HttpApiGroup.make("storage")
  .add(
    HttpApiEndpoint.post("split", "/storage/split")
      .annotate(OpenApi.Summary, "Set the storage split")
      .setPayload(SplitBody)
      .addSuccess(StorageAnswer)
      .annotate(
        OpenApi.Description,
        "Sets the media library's share of storage (a whole percent within `split`); rendered clips get the rest. " +
          "Kept clips beyond the new clips share are removed, oldest first; media over their new share: 409 naming " +
          "the bytes. Answers `{ storage }`, the new storage block."
      )
  )
  .addError(SchemaValidation)
  .addError(Conflict)
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Storage")
  .annotate(OpenApi.Description, "How storage is split between the media library and rendered clips.")
{}
