import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { ChecksumMismatch } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { signedGroup } from "../../http/ApiGroups.js"
import { LinkQuery } from "./KeptExport.js"

/**
 * Export links (`POST /v1/direct-export/video/{jobId}/link`). No Authentication middleware: the key in the link is the
 * authorisation, so these routes never look at a bearer.
 */
export class ExportFilesApi extends HttpApiGroup.make("exportFiles")
  .add(
    HttpApiEndpoint.get("linked", "/export-files/:jobId")
      .setPath(Schema.Struct({ jobId: Schema.String }))
      .setUrlParams(LinkQuery)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "video/mp4" }))
      .annotateContext(
        doc(
          "Download an exported video through a link",
          "The exported .mp4 through a link; no credential. A wrong, tampered or expired key: 403; the video gone: 404; " +
            "its stored bytes no longer matching the sha256 recorded for them: 502 `checksum_mismatch` (nothing is sent)."
        )
      )
      .addError(ChecksumMismatch)
  )
  .pipe(signedGroup("Export links", "Exported videos through a link that needs no credential."))
{}
