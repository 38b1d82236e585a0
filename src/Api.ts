import { HttpApi, OpenApi } from "@effect/platform"
import { Conflict, Forbidden, Internal, NotFound, Unauthenticated, UpstreamUnavailable } from "./domain/Errors.js"
import { AdminApi } from "./identity/AdminApi.js"
import { AssetFilesApi } from "./renders/AssetFilesApi.js"
import { BrandSlotsApi } from "./brands/BrandSlotsApi.js"
import { BrandsApi } from "./brands/BrandsApi.js"
import { ExportApi } from "./renders/ExportApi.js"
import { ExportFilesApi } from "./renders/ExportFilesApi.js"
import { RenderJobsApi } from "./renders/RenderJobsApi.js"
import { RendersApi } from "./renders/RendersApi.js"
import { documentEnvelope } from "./http/OpenApiEnvelope.js"
import { IdentityApi } from "./identity/IdentityApi.js"
import { MediaApi, MediaPreviewApi } from "./media/MediaApi.js"
import { StorageApi } from "./renders/StorageApi.js"
import { StreamsApi } from "./streams/StreamsApi.js"
import { SystemApi } from "./system/SystemApi.js"
import { TemplatesApi } from "./templates/TemplatesApi.js"

/** The whole HTTP contract: one group per spec area. */
export class ClipwrightApi extends HttpApi.make("clipwright")
  .add(SystemApi)
  .add(IdentityApi)
  .add(StreamsApi)
  .add(RendersApi)
  .add(RenderJobsApi)
  .add(ExportApi)
  .add(ExportFilesApi)
  .add(StorageApi)
  .add(AssetFilesApi)
  .add(BrandsApi)
  .add(BrandSlotsApi)
  .add(MediaApi)
  .add(MediaPreviewApi)
  .add(TemplatesApi)
  .add(AdminApi)
  .addError(Unauthenticated)
  .addError(Forbidden)
  .addError(Internal)
  .addError(NotFound)
  .addError(Conflict)
  .addError(UpstreamUnavailable)
  .annotate(OpenApi.Transform, documentEnvelope)
  .annotate(OpenApi.Title, "clipwright")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(
    OpenApi.Description,
    "Draws short videos from templates and data and hands finished posts over by signed webhook and email. " +
      "Every failure answers `{ error: { type, code, message, requestId, details[] } }`."
  )
{}
