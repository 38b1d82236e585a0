import { HttpApi, OpenApi } from "@effect/platform"
import { BrandsApi } from "./brands/BrandsApi.js"
import { BrandSlotsApi } from "./brands/BrandSlotsApi.js"
import { ChannelsApi } from "./channels/ChannelsApi.js"
import { ConnectorApi } from "./channels/ConnectorApi.js"
import { ConnectionsApi, CredentialsApi } from "./channels/CredentialsApi.js"
import { ReceiptsApi } from "./delivery/handover/ReceiptsApi.js"
import { DeliveriesApi } from "./delivery/log/DeliveriesApi.js"
import { Conflict, Forbidden, Internal, NotFound, Unauthenticated, UpstreamUnavailable } from "./domain/Errors.js"
import { FeedsAdminApi } from "./feeds/FeedsAdminApi.js"
import { FeedsApi } from "./feeds/FeedsApi.js"
import { documentEnvelope } from "./http/OpenApiEnvelope.js"
import { AdminApi } from "./identity/AdminApi.js"
import { IdentityApi } from "./identity/IdentityApi.js"
import { BroadcastApi } from "./ingest/BroadcastApi.js"
import { FeedIngestApi } from "./ingest/FeedIngestApi.js"
import { IngestEventsApi } from "./ingest/IngestEventsApi.js"
import { StreamSendApi } from "./ingest/StreamSendApi.js"
import { MediaApi, MediaPreviewApi } from "./media/MediaApi.js"
import { StorageApi } from "./media/StorageApi.js"
import { JobActionsApi } from "./publishing/actions/JobActionsApi.js"
import { ApprovalsApi } from "./publishing/approvals/ApprovalsApi.js"
import { PostPackagesApi } from "./publishing/packages/PostPackagesApi.js"
import { PipelineApi } from "./publishing/pipeline/PipelineApi.js"
import { JobsApi } from "./publishing/views/JobsApi.js"
import { PostListsApi } from "./queues/PostListsApi.js"
import { AdminLimitsApi } from "./renders/allowance/AdminLimitsApi.js"
import { RendersApi } from "./renders/allowance/RendersApi.js"
import { AssetFilesApi } from "./renders/clips/AssetFilesApi.js"
import { ReferenceClipsApi } from "./renders/clips/ReferenceClipsApi.js"
import { RenderedClipsApi } from "./renders/clips/RenderedClipsApi.js"
import { ExportApi } from "./renders/exports/ExportApi.js"
import { ExportFilesApi } from "./renders/exports/ExportFilesApi.js"
import { RenderJobsApi } from "./renders/runner/RenderJobsApi.js"
import { StreamsApi } from "./streams/StreamsApi.js"
import { SystemApi } from "./system/SystemApi.js"
import { AdminTemplatesApi } from "./templates/AdminTemplatesApi.js"
import { TemplatesApi } from "./templates/TemplatesApi.js"

/** The whole HTTP contract: each area's groups; each area's handlers implement theirs against this class. */
export class ClipwrightApi extends HttpApi.make("clipwright")
  .add(SystemApi)
  .add(IdentityApi)
  .add(StreamsApi)
  .add(StreamSendApi)
  .add(FeedIngestApi)
  .add(BroadcastApi)
  .add(IngestEventsApi)
  .add(JobsApi)
  .add(TemplatesApi)
  .add(ReferenceClipsApi)
  .add(RendersApi)
  .add(RenderJobsApi)
  .add(ExportApi)
  .add(ExportFilesApi)
  .add(StorageApi)
  .add(RenderedClipsApi)
  .add(AssetFilesApi)
  .add(BrandsApi)
  .add(BrandSlotsApi)
  .add(ChannelsApi)
  .add(CredentialsApi)
  .add(ConnectionsApi)
  .add(ConnectorApi)
  .add(MediaApi)
  .add(MediaPreviewApi)
  .add(AdminApi)
  .add(AdminLimitsApi)
  .add(AdminTemplatesApi)
  .add(FeedsApi)
  .add(FeedsAdminApi)
  .add(PipelineApi)
  .add(JobActionsApi)
  .add(ApprovalsApi)
  .add(PostPackagesApi)
  .add(ReceiptsApi)
  .add(DeliveriesApi)
  .add(PostListsApi)
  .addError(Unauthenticated)
  .addError(Forbidden)
  .addError(Internal)
  .addError(NotFound)
  .addError(Conflict)
  .addError(UpstreamUnavailable)
  .annotate(OpenApi.Transform, documentEnvelope)
  .annotate(OpenApi.Title, "clipwright")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(OpenApi.Servers, [
    { url: "/", description: "The node serving this document (its `PUBLIC_BASE_URL`); every path is relative to it." }
  ])
  .annotate(
    OpenApi.Description,
    "Draws short videos from templates and data and hands finished posts over by signed webhook and email. " +
      "Every failure answers `{ error: { type, code, message, requestId, details[] } }`."
  )
{}
