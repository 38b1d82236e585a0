import { HttpApiBuilder, HttpApiScalar, HttpMiddleware, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { ClusterLive } from "../cluster/Cluster.js"
import { EntitiesLive } from "../cluster/Entities.js"
import { ClipwrightApi } from "./Api.js"
import { AppConfig } from "./Config.js"
import { AdminHttpLive } from "./identity/AdminHttp.js"
import { BrandSlotsHttpLive } from "./brands/BrandSlotsHttp.js"
import { BrandsHttpLive } from "./brands/BrandsHttp.js"
import { IdentityHttpLive } from "./identity/IdentityHttp.js"
import { MediaHttpLive, MediaPreviewHttpLive } from "./media/MediaHttp.js"
import { ErrorEnvelopeLive, requestContext } from "./http/RequestContext.js"
import { AdminAuthenticationLive, AuthenticationLive } from "./http/SecurityLive.js"
import { ExportHttpLive } from "./renders/ExportHttp.js"
import { ExportFilesHttpLive } from "./renders/ExportFilesHttp.js"
import { RenderJobsHttpLive } from "./renders/RenderJobsHttp.js"
import { RendersHttpLive } from "./renders/RendersHttp.js"
import { AssetFilesHttpLive, StorageHttpLive } from "./renders/StorageHttp.js"
import { StreamsHttpLive } from "./streams/StreamsHttp.js"
import { SystemHttpLive } from "./system/SystemHttp.js"
import { TemplatesHttpLive } from "./templates/TemplatesHttp.js"
import { TracingLive } from "./observability/Tracing.js"
import { AdminToken } from "./http/AdminToken.js"
import { Identity } from "./identity/Identity.js"
import { Quotas } from "./renders/Quotas.js"
import { Brands } from "./brands/Brands.js"
import { Streams } from "./streams/Streams.js"
import { Templates } from "./templates/Templates.js"
import { DatabaseLive } from "./sql/Database.js"
import { IdentityRepo } from "./identity/IdentityRepo.js"
import { BrandRepo } from "./brands/BrandRepo.js"
import { StreamRepo } from "./streams/StreamRepo.js"
import { AllowanceRepo } from "./renders/AllowanceRepo.js"
import { ExportRepo } from "./renders/ExportRepo.js"
import { RenderRepo } from "./renders/RenderRepo.js"
import { BlobStorage } from "./storage/BlobStorage.js"
import { Exports } from "./renders/Exports.js"
import { ExportViews } from "./renders/ExportViews.js"
import { ExportFiles } from "./renders/ExportFiles.js"
import { RenderCapacity } from "./renders/RenderCapacity.js"
import { RenderOutputs } from "./renders/RenderOutputs.js"
import { Keyframes } from "./renders/Keyframes.js"
import { ReferenceClips } from "./renders/ReferenceClips.js"
import { RenderJobs } from "./renders/RenderJobs.js"
import { RenderJobsQuery } from "./renders/RenderJobsQuery.js"
import { StorageRepo } from "./media/StorageRepo.js"
import { RenderedClips } from "./renders/RenderedClips.js"
import { StorageUsage } from "./media/StorageUsage.js"
import { BrandLooks } from "./brands/BrandLooks.js"
import { MediaRepo } from "./media/MediaRepo.js"
import { BrandSlots } from "./brands/BrandSlots.js"
import { MediaHolders } from "./brands/MediaHolders.js"
import { MediaLibrary } from "./media/MediaLibrary.js"
import { MediaUploads } from "./media/MediaUploads.js"

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
