import { HttpApiBuilder, HttpApiScalar, HttpMiddleware, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { ClusterLive } from "../cluster/Cluster.js"
import { EntitiesLive } from "../cluster/Entities.js"
import { ClipwrightApi } from "./api/Api.js"
import { AppConfig } from "./Config.js"
import { AdminHttpLive } from "./http/AdminHttp.js"
import { BrandSlotsHttpLive } from "./http/BrandSlotsHttp.js"
import { BrandsHttpLive } from "./http/BrandsHttp.js"
import { IdentityHttpLive } from "./http/IdentityHttp.js"
import { MediaHttpLive, MediaPreviewHttpLive } from "./http/MediaHttp.js"
import { ErrorEnvelopeLive, requestContext } from "./http/RequestContext.js"
import { AdminAuthenticationLive, AuthenticationLive } from "./http/SecurityLive.js"
import { ExportHttpLive } from "./http/ExportHttp.js"
import { ExportFilesHttpLive } from "./http/ExportFilesHttp.js"
import { RenderJobsHttpLive } from "./http/RenderJobsHttp.js"
import { RendersHttpLive } from "./http/RendersHttp.js"
import { AssetFilesHttpLive, StorageHttpLive } from "./http/StorageHttp.js"
import { StreamsHttpLive } from "./http/StreamsHttp.js"
import { SystemHttpLive } from "./http/SystemHttp.js"
import { TemplatesHttpLive } from "./http/TemplatesHttp.js"
import { TracingLive } from "./observability/Tracing.js"
import { AdminToken } from "./services/AdminToken.js"
import { Identity } from "./services/Identity.js"
import { Quotas } from "./services/Quotas.js"
import { Brands } from "./services/Brands.js"
import { Streams } from "./services/Streams.js"
import { Templates } from "./services/Templates.js"
import { DatabaseLive } from "./sql/Database.js"
import { IdentityRepo } from "./sql/IdentityRepo.js"
import { BrandRepo } from "./sql/BrandRepo.js"
import { StreamRepo } from "./sql/StreamRepo.js"
import { AllowanceRepo } from "./sql/AllowanceRepo.js"
import { ExportRepo } from "./sql/ExportRepo.js"
import { RenderRepo } from "./sql/RenderRepo.js"
import { BlobStorage } from "./storage/BlobStorage.js"
import { Exports } from "./services/Exports.js"
import { ExportViews } from "./services/ExportViews.js"
import { ExportFiles } from "./services/ExportFiles.js"
import { RenderCapacity } from "./services/RenderCapacity.js"
import { RenderOutputs } from "./services/RenderOutputs.js"
import { Keyframes } from "./services/Keyframes.js"
import { ReferenceClips } from "./services/ReferenceClips.js"
import { RenderJobs } from "./services/RenderJobs.js"
import { RenderJobsQuery } from "./sql/RenderJobsQuery.js"
import { StorageRepo } from "./sql/StorageRepo.js"
import { RenderedClips } from "./services/RenderedClips.js"
import { StorageUsage } from "./services/StorageUsage.js"
import { BrandLooks } from "./services/BrandLooks.js"
import { MediaRepo } from "./sql/MediaRepo.js"
import { BrandSlots } from "./services/BrandSlots.js"
import { MediaHolders } from "./services/MediaHolders.js"
import { MediaLibrary } from "./services/MediaLibrary.js"
import { MediaUploads } from "./services/MediaUploads.js"

const RepositoriesLive = Layer.mergeAll(
  IdentityRepo.layer,
  StreamRepo.layer,
  BrandRepo.layer,
  RenderRepo.layer,
  ExportRepo.layer,
  AllowanceRepo.layer,
  RenderJobsQuery.layer,
  StorageRepo.layer,
  MediaRepo.layer
)

/** What this node itself offers the entities it hosts: repositories, files, render slots. */
const NodeResourcesLive = Layer.mergeAll(RenderOutputs.layer, StorageUsage.layer).pipe(
  Layer.provideMerge(BrandLooks.layer),
  Layer.provideMerge(Layer.mergeAll(RepositoriesLive, BlobStorage.layer, RenderCapacity.layer))
)

/** The media library and brand slots (uploads, holders, views). */
const MediaServicesLive = BrandSlots.layer.pipe(
  Layer.provideMerge(MediaLibrary.layer),
  Layer.provideMerge(Layer.mergeAll(MediaUploads.layer, MediaHolders.layer))
)

const ServicesLive = Layer.mergeAll(
  MediaServicesLive,
  Streams.layer,
  Brands.layer,
  Quotas.layer,
  AdminToken.layer,
  Templates.layer,
  Exports.layer,
  ExportFiles.layer,
  Keyframes.layer,
  ReferenceClips.layer,
  RenderJobs.layer,
  RenderedClips.layer
).pipe(Layer.provideMerge(Layer.mergeAll(Identity.layer, ExportViews.layer)))

const ApiLive = HttpApiBuilder.api(ClipwrightApi).pipe(
  Layer.provide([
    SystemHttpLive,
    IdentityHttpLive,
    StreamsHttpLive,
    RendersHttpLive,
    RenderJobsHttpLive,
    ExportHttpLive,
    ExportFilesHttpLive,
    StorageHttpLive,
    AssetFilesHttpLive,
    BrandsHttpLive,
    BrandSlotsHttpLive,
    MediaHttpLive,
    MediaPreviewHttpLive,
    TemplatesHttpLive,
    AdminHttpLive
  ]),
  Layer.provide([AuthenticationLive, AdminAuthenticationLive])
)

const HttpLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  return HttpApiBuilder.serve(requestContext(`${config.publicBaseUrl}/errors`)).pipe(
    Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/v1/openapi.json" })),
    Layer.provide(ErrorEnvelopeLive),
    Layer.provide(ApiLive),
    HttpServer.withLogAddress,
    // requestContext opens each request's server span itself.
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: config.host }))
  )
}))

/** One node: HTTP API, cluster runner hosting every entity, SQL, tracing. The only composition root. */
export const NodeLive = HttpLive.pipe(
  Layer.provide(ServicesLive),
  Layer.provide(EntitiesLive),
  Layer.provideMerge(NodeResourcesLive),
  Layer.provideMerge(ClusterLive),
  Layer.provideMerge(DatabaseLive),
  Layer.provide(TracingLive)
)
