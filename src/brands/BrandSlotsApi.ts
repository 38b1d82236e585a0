import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import {
  LocaleNotSupported,
  NotFound,
  PayloadTooLarge,
  SchemaValidation,
  UnsupportedMediaType
} from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { UploadForm } from "../media/MediaApi.js"
import { MediaFile } from "../media/MediaFile.js"
import { BrandView } from "./Brand.js"

const SlotPath = Schema.Struct({ id: Schema.String, slot: Schema.String })
const LocaleQuery = Schema.Struct({ locale: Schema.optional(Schema.String) })
const SlotAnswer = Schema.Struct({ brand: BrandView, file: MediaFile })

const slots = "Slots: `logo` (PNG, JPEG, WebP, SVG; 5 MB), `background` (PNG, JPEG, WebP, MP4; 50 MB), `badge` " +
  "(PNG, JPEG, WebP, MP4; 20 MB), `sound` (MP3, WAV; 20 MB), `intro-<ratio>` and `outro-<ratio>` (MP4; 50 MB), " +
  "`font-primary|secondary|tertiary|frame` (WOFF2, WOFF, TTF, OTF; 10 MB). `locale` (query) for background, badge " +
  "and clips; without it the file is the default for every locale. An unknown slot: 404; a wrong type: 400. " +
  "The slot's previous file is deleted when it was uploaded into a slot and no slot holds it any more; a linked " +
  "library file stays in the library."

/** Files of a brand's style (SPEC "Brands" slot routes); each file is a media library file too. */
export class BrandSlotsApi extends HttpApiGroup.make("brandSlots")
  .add(
    HttpApiEndpoint.post("upload", "/brands/:id/assets/:slot")
      .setPath(SlotPath)
      .setUrlParams(LocaleQuery)
      .setPayload(UploadForm({}))
      .addSuccess(SlotAnswer, { status: 201 })
      .annotateContext(
        doc(
          "Upload a file into a brand slot",
          "Uploads a file (multipart/form-data; JSON: 415) into a slot; it is stored in the media library (counted " +
            "against storage, listed in /v1/media) and written into the stored style. Answers `{ brand, file }`. " +
            slots
        )
      )
  )
  .add(
    HttpApiEndpoint.post("link", "/brands/:id/assets/:slot/link")
      .setPath(SlotPath)
      .setUrlParams(LocaleQuery)
      .setPayload(Schema.Struct({ url: Schema.String }))
      .addSuccess(SlotAnswer)
      .annotateContext(
        doc(
          "Put a library file into a brand slot",
          "Puts a library file (`media://<id>`) into a slot; its type and size must fit the slot. " + slots
        )
      )
  )
  .add(
    HttpApiEndpoint.post("delete", "/brands/:id/assets/:slot/delete")
      .setPath(SlotPath)
      .setUrlParams(LocaleQuery)
      .addSuccess(Schema.Struct({ brand: BrandView }))
      .annotateContext(
        doc("Empty a brand slot", "Empties a slot (for `locale`, or the default file). Answers `{ brand }`. " + slots)
      )
  )
  .addError(SchemaValidation)
  .addError(LocaleNotSupported)
  .addError(PayloadTooLarge)
  .addError(UnsupportedMediaType)
  .addError(NotFound)
  .pipe(workspaceGroup("Brand slots", "A brand's files (logo, fonts and others), one per slot and locale."))
{}
