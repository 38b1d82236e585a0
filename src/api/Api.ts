import { HttpApi, OpenApi } from "@effect/platform"
import { Conflict, Forbidden, Internal, NotFound, Unauthenticated, UpstreamUnavailable } from "../domain/Errors.js"
import { AdminApi } from "./AdminApi.js"
import { AssetFilesApi } from "./AssetFilesApi.js"
import { BrandSlotsApi } from "./BrandSlotsApi.js"
import { BrandsApi } from "./BrandsApi.js"
import { ExportApi } from "./ExportApi.js"
import { ExportFilesApi } from "./ExportFilesApi.js"
import { RenderJobsApi } from "./RenderJobsApi.js"
import { RendersApi } from "./RendersApi.js"
import { documentEnvelope } from "./OpenApiEnvelope.js"
import { IdentityApi } from "./IdentityApi.js"
import { MediaApi, MediaPreviewApi } from "./MediaApi.js"
import { StorageApi } from "./StorageApi.js"
import { StreamsApi } from "./StreamsApi.js"
import { SystemApi } from "./SystemApi.js"
import { TemplatesApi } from "./TemplatesApi.js"

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
