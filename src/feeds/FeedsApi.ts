import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import {
  LocaleNotSupported,
  RatioNotSupported,
  RenderFailed,
  SchemaValidation,
  UnknownFormat,
  UnknownSource,
  UnknownTemplate
} from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { BuildQuery, InputDescription } from "../templates/TemplateShapes.js"
import { Catalogue, FeedReferenceListing } from "./Feed.js"
import { FeedSwitch, WorkspaceFeeds } from "./FeedOffer.js"

const FeedPath = Schema.Struct({ feedId: Schema.String })

/** The shipped feeds: the public catalogue, their input descriptions and their example clips. */
export class FeedsApi extends HttpApiGroup.make("feeds")
  .add(
    HttpApiEndpoint.get("catalogue", "/catalogue")
      .addSuccess(Catalogue)
      .annotateContext(
        doc(
          "The shipped feed catalogue",
          "Every shipped source and its formats, each with its payload schema. With a key, `entitled` says whether " +
            "the caller's workspace may switch the source on; without one (also served unauthenticated), whether a " +
            "new workspace is. Answers `etag` and `cache-control: public, max-age=30`; `If-None-Match` with the " +
            "etag answers 304."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("describeFeed", "/formats/feed/:feedId")
      .setPath(FeedPath)
      .addSuccess(InputDescription)
      .addError(UnknownFormat)
      .annotateContext(
        doc(
          "Describe a feed's input by id",
          "The input description of the feed's template at the feed's variant and its newest build: the same " +
            "document as `/v1/formats/template/{templateId}`. Also served without an Authorization header."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("describeFormat", "/formats/feed/:source/:format")
      .setPath(Schema.Struct({ source: Schema.String, format: Schema.String }))
      .addSuccess(InputDescription)
      .addError(UnknownSource)
      .addError(UnknownFormat)
      .annotateContext(
        doc(
          "Describe a feed's input by slugs",
          "As `/v1/formats/feed/{feedId}`, addressed by source and format slug. Unknown source: 404 " +
            "`unknown_source`; unknown format under it: 404 `unknown_format`. Also served without an Authorization " +
            "header."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/feeds")
      .addSuccess(WorkspaceFeeds)
      .annotateContext(
        doc(
          "List the workspace's feeds",
          "The shipped feeds as this workspace sees them, grouped by source: `offered` (entitled and live), " +
            "`enabled` (the workspace's switch, on unless switched off) and `subscribers` (live channels with an " +
            "enabled BROADCAST subscription). A feed not offered is left out unless a channel still listens to it."
        )
      )
  )
  .add(
    HttpApiEndpoint.put("switch", "/feeds")
      .setPayload(FeedSwitch)
      .addSuccess(FeedSwitch)
      .addError(UnknownSource)
      .addError(UnknownFormat)
      .addError(SchemaValidation)
      .annotateContext(
        doc(
          "Switch a feed on or off",
          "Sets the workspace's switch on one feed (`enabled` must be a boolean) and answers it. Off stops the feed " +
            "for every channel of the workspace, and no channel can subscribe to it until it is on again. A feed not " +
            "offered to the workspace can be switched only while a channel still listens to it (else 403). Unknown " +
            "source or format: 404 `unknown_source` / `unknown_format`."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("reference", "/feeds/:feedId/reference")
      .setPath(FeedPath)
      .addSuccess(FeedReferenceListing)
      .addError(UnknownFormat)
      .annotateContext(
        doc(
          "List a feed's example clips",
          "The example clips of a feed: every variant and version of its template with the shapes each build comes " +
            "in, and the feed's own variant (the clip route's default)."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("referenceClip", "/feeds/:feedId/reference/:ratio")
      .setPath(Schema.Struct({ feedId: Schema.String, ratio: Schema.String }))
      .setUrlParams(BuildQuery)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "video/mp4" }))
      .addError(UnknownFormat)
      .addError(UnknownTemplate)
      .addError(SchemaValidation)
      .addError(RatioNotSupported)
      .addError(LocaleNotSupported)
      .addError(RenderFailed)
      .annotateContext(
        doc(
          "Get a feed's example clip",
          "The feed's worked example drawn as an MP4 in that shape; without `variant`, the feed's variant, and " +
            "without `version`, the newest build. Answers `x-preview-version` (the build drawn), `etag`, " +
            "`cache-control: private, no-cache`; `If-None-Match` with the etag answers 304. Drawn once per build and " +
            "shape, shared with the template's reference clip."
        )
      )
  )
  .pipe(
    workspaceGroup(
      "Feeds",
      "The feeds the service ships: a catalogue of sources, each with formats bound to a shipped template and variant."
    )
  )
{}
