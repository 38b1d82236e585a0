import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { ChecksumMismatch } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { signedGroup } from "../../http/ApiGroups.js"
import { IdPath } from "../../http/ApiPaths.js"
import { SignedQuery } from "./RenderedClip.js"

/**
 * Signed asset downloads (`url` of asset metadata, rendered clips and render jobs). No Authentication middleware: the
 * signature (`exp`, `sig`) is the authorisation, so these routes never look at a bearer.
 */
export class AssetFilesApi extends HttpApiGroup.make("assetFiles")
  .add(
    HttpApiEndpoint.get("download", "/assets/:id/download")
      .setPath(IdPath)
      .setUrlParams(SignedQuery)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "video/mp4" }))
      .annotateContext(
        doc(
          "Download a rendered clip",
          "The clip's bytes (`video/mp4`, inline); `Range` answers 206, an unsatisfiable range 416. No credential. " +
            "A missing, tampered or expired signature: 403; a removed clip: 404; stored bytes that no longer match the " +
            "clip's `sha256`: 502 `checksum_mismatch`, and nothing is sent."
        )
      )
      .addError(ChecksumMismatch)
  )
  .pipe(signedGroup("Asset downloads", "A rendered clip's bytes through its signed URL; no credential."))
{}
