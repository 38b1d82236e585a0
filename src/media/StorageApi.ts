import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Conflict, SchemaValidation } from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { SplitBody, StorageAnswer } from "./StorageBlock.js"

/** Storage of a workspace: how it is split between the media library and rendered clips. */
export class StorageApi extends HttpApiGroup.make("storage")
  .add(
    HttpApiEndpoint.post("split", "/storage/split")
      .setPayload(SplitBody)
      .addSuccess(StorageAnswer)
      .annotateContext(
        doc(
          "Set the storage split",
          "Sets the media library's share of storage (a whole percent within `split`); rendered clips get the rest. " +
            "Kept clips beyond the new clips share are removed, oldest first; media over their new share: 409 naming " +
            "the bytes. Answers `{ storage }`, the new storage block."
        )
      )
  )
  .addError(SchemaValidation)
  .addError(Conflict)
  .pipe(workspaceGroup("Storage", "How storage is split between the media library and rendered clips."))
{}
