import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Option, Schema } from "effect"
import {
  ChecksumMismatch,
  Conflict,
  NotFound,
  PayloadTooLarge,
  SchemaValidation,
  UnsupportedMediaType
} from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { signedGroup, workspaceGroup } from "../http/ApiGroups.js"
import { IdPath } from "../http/ApiPaths.js"
import { MediaFile, MediaList, MediaUpload, MediaUse, PreviewQuery, RenameBody, UPLOAD_CEILING } from "./MediaFile.js"

/** Room for the multipart framing and the text parts around the file. */
export const FRAMING_BYTES = 1024 * 1024

/** Multipart limits of the parser itself; the route's own limits (per kind, storage share) are tighter. */
export const uploadLimits = {
  maxParts: Option.some(8),
  maxFieldSize: 64 * 1024,
  maxTotalSize: Option.some(UPLOAD_CEILING + FRAMING_BYTES)
}

/** The multipart body of an upload, as documented (the file streams to storage, it is never decoded whole). */
export const UploadForm = (fields: Schema.Struct.Fields) =>
  HttpApiSchema.MultipartStream(
    Schema.Struct({
      file: Schema.String.annotations({ format: "binary", description: "The file; the first file part is used." }),
      ...fields
    }),
    uploadLimits
  )

/** The media library (SPEC "Media library"). A body that is not multipart/form-data: 415. */
export class MediaApi extends HttpApiGroup.make("media")
  .add(
    HttpApiEndpoint.post("upload", "/media")
      .setPayload(UploadForm({
        replace: Schema.optional(Schema.Literal("true")),
        replaces: Schema.optional(Schema.String)
      }))
      .addSuccess(MediaUpload, { status: 201 })
      .annotateContext(
        doc(
          "Upload a media file",
          "Uploads one file, streamed to storage. The type is read from the bytes (fonts by extension): PNG, JPEG, " +
            "WebP, GIF, SVG (10 MB; pictures at most 2048×2048 read from the header, SVG exempt), MP4 (5 MB), MP3 and " +
            "WAV (20 MB), WOFF2/WOFF/TTF/OTF (10 MB); 50 MB for any upload. Over a limit or the media share of " +
            "storage: " +
            "413. A name in use: 409 unless `replace=true` (the same-named file is replaced) or `replaces=<id>` (same " +
            "kind; keeps the old name with the new extension). A replaced file's brand slots move to the new file, " +
            "which has a new id; the old one is deleted."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/media")
      .addSuccess(MediaList)
      .annotateContext(
        doc(
          "List media files",
          "Every file, newest first, with the storage block; `url` is a preview signed for an hour."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("rename", "/media/:id/rename")
      .setPath(IdPath)
      .setPayload(RenameBody)
      .addSuccess(Schema.Struct({ file: MediaFile }))
      .annotateContext(
        doc("Rename a media file", "Renames a file (1 to 200 characters); a name in use: 409. Answers `{ file }`.")
      )
  )
  .add(
    HttpApiEndpoint.post("delete", "/media/:id/delete")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ deleted: Schema.Literal(true), id: Schema.String }))
      .annotateContext(
        doc(
          "Delete a media file",
          "Deletes the file and its bytes; brand slots holding it are emptied. Answers `{ deleted: true, id }`."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("uses", "/media/:id/uses")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ uses: Schema.Array(MediaUse) }))
      .annotateContext(
        doc(
          "List what holds a media file",
          "What holds the file: `{ kind: \"brandSlot\", brandId, brandName, slot, locale? }` per brand slot."
        )
      )
  )
  .addError(SchemaValidation)
  .addError(PayloadTooLarge)
  .addError(UnsupportedMediaType)
  .addError(NotFound)
  .addError(Conflict)
  .pipe(workspaceGroup("Media library", "The workspace's uploaded files, counted against its storage."))
{}

/** Signed previews: no Authentication middleware, the signature in the link is the authority. */
export class MediaPreviewApi extends HttpApiGroup.make("mediaPreview")
  .add(
    HttpApiEndpoint.get("preview", "/media/:id/preview")
      .setPath(IdPath)
      .setUrlParams(PreviewQuery)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" }))
      .annotateContext(
        doc(
          "Preview a media file",
          "The file's bytes under its own type, through the signed `url` of a media file (about an hour). A wrong, " +
            "tampered or expired signature: 403; the file deleted: 404; stored bytes that no longer match the file's " +
            "`sha256`: 502 `checksum_mismatch`, and nothing is sent."
        )
      )
      .addError(ChecksumMismatch)
  )
  .pipe(signedGroup("Media previews", "A media file's bytes through its signed preview URL; no credential."))
{}
