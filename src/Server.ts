import { HttpApiBuilder, HttpApiScalar, HttpMiddleware, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { ClusterLive } from "../cluster/Cluster.js"
import { EntitiesLive } from "../cluster/Entities.js"
import { ClipwrightApi } from "./Api.js"
import { BrandMediaHoldersLive, BrandsLive } from "./brands/BrandsLive.js"
import { ChannelBrandWearers, ChannelListeners, ChannelsLive } from "./channels/ChannelsLive.js"
import { CredentialsLive } from "./channels/CredentialsHttp.js"
import { AppConfig } from "./Config.js"
import { ApprovalRoutes } from "./console/approvals/ApprovalRoutes.js"
import { AttentionQuery } from "./console/attention/AttentionQuery.js"
import { HomeRoutes } from "./console/attention/HomeRoutes.js"
import { CalendarRoutes } from "./console/calendar/CalendarRoutes.js"
import { ConsoleRoutes } from "./console/ConsoleRoutes.js"
import { DeliveryRoutes } from "./console/deliveries/DeliveryRoutes.js"
import { EventRoutes } from "./console/events/EventRoutes.js"
import { ExportRoutes } from "./console/exports/ExportRoutes.js"
import { JobRoutes } from "./console/jobs/JobRoutes.js"
import { ListRoutes } from "./console/lists/ListRoutes.js"
import { PipelineRoutes } from "./console/pipeline/PipelineRoutes.js"
import { WorkspaceRoutes } from "./console/workspace/WorkspaceRoutes.js"
import { HandOverLive } from "./delivery/handover/HandOverLive.js"
import { ReceiptsLive } from "./delivery/handover/ReceiptsLive.js"
import { DeliveriesLive } from "./delivery/log/DeliveriesLive.js"
import { DrawingRenderer } from "./drawing/DrawingRenderer.js"
import { FeedsLive } from "./feeds/FeedsLive.js"
import { ErrorEnvelopeLive, requestContext } from "./http/RequestContext.js"
import { IdentityLive } from "./identity/IdentityLive.js"
import { IngestLive } from "./ingest/IngestLive.js"
import { MediaLive } from "./media/MediaLive.js"
import { OrphanBlobSweepLive } from "./media/OrphanBlobs.js"
import { MetricsExportLive } from "./observability/MetricsExport.js"
import { MetricsSamplerLive } from "./observability/MetricsSampler.js"
import { TracingLive } from "./observability/Tracing.js"
import { PeopleLive } from "./people/PeopleLive.js"
import { DecisionsLive } from "./publishing/actions/DecisionsLive.js"
import { PipelineViewsLive } from "./publishing/pipeline/PipelineViewsLive.js"
import { ChannelClipListeners } from "./publishing/states/ChannelClipListeners.js"
import { ChannelRenderListeners } from "./publishing/states/ChannelRenderListeners.js"
import { JobMachineLive } from "./publishing/states/JobMachineLive.js"
import { JobRepo } from "./publishing/states/JobRepo.js"
import { JobViewsLive } from "./publishing/views/JobViewsLive.js"
import { PostListMediaHoldersLive, PostListsLive } from "./queues/PostListsLive.js"
import { RenderedClipNeeds } from "./renders/clips/RenderedClipNeeds.js"
import { RendersLive } from "./renders/runner/RendersLive.js"
import { DatabaseLive } from "./sql/Database.js"
import { StorageLive } from "./storage/setup/StorageLive.js"
import { StreamsLive } from "./streams/StreamsLive.js"
import { SystemHttpLive } from "./system/SystemHttp.js"
import { TemplatesLive } from "./templates/TemplatesLive.js"

/** Every area, each standing on the ones below it (identity and templates at the bottom, post lists at the top). */
const AreasLive = PostListsLive.pipe(
  Layer.provideMerge(Layer.mergeAll(IngestLive, DecisionsLive, PipelineViewsLive, JobViewsLive, DeliveriesLive)),
  // The job and post state machine stands on channels (whose entity runs it) and on hand-over (its follow-ups).
  Layer.provideMerge(JobMachineLive),
  Layer.provideMerge(Layer.mergeAll(ChannelsLive, CredentialsLive, HandOverLive, ReceiptsLive)),
  Layer.provideMerge(FeedsLive),
  Layer.provideMerge(RendersLive),
  Layer.provideMerge(BrandsLive),
  Layer.provideMerge(MediaLive),
  // Media asks what holds a file: scheduled posts laid over brand slots.
  Layer.provideMerge(PostListMediaHoldersLive),
  Layer.provideMerge(BrandMediaHoldersLive),
  Layer.provideMerge(Layer.merge(StreamsLive, SystemHttpLive)),
  // Streams check the operator's template clearance, which the templates area answers.
  Layer.provideMerge(TemplatesLive),
  Layer.provideMerge(IdentityLive),
  Layer.provideMerge(PeopleLive),
  // Lower areas ask higher ones through ports (media asks renders which clips are needed; brands, streams, feeds and
  // renders ask channels); the answers need only SQL and the cluster, so they sit under every area.
  Layer.provideMerge(Layer.mergeAll(
    RenderedClipNeeds,
    ChannelBrandWearers,
    ChannelListeners,
    ChannelRenderListeners.pipe(Layer.provide(JobRepo.layer)),
    ChannelClipListeners
  ))
)

const HttpLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  return HttpApiBuilder.serve(requestContext(`${config.publicBaseUrl}/errors`)).pipe(
    Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
    Layer.provide(ConsoleRoutes),
    Layer.provide(Layer.merge(ApprovalRoutes, HomeRoutes.pipe(Layer.provide(AttentionQuery.layer)))),
    Layer.provide(WorkspaceRoutes),
    Layer.provide(ExportRoutes),
    Layer.provide(DeliveryRoutes),
    Layer.provide(Layer.mergeAll(CalendarRoutes, EventRoutes, ListRoutes)),
    Layer.provide(Layer.merge(PipelineRoutes, JobRoutes)),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/v1/openapi.json" })),
    Layer.provide(ErrorEnvelopeLive),
    Layer.provide(HttpApiBuilder.api(ClipwrightApi)),
    HttpServer.withLogAddress,
    // requestContext opens each request's server span itself.
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: config.host }))
  )
}))

/** One node: HTTP API and the cluster runner hosting every entity, over SQL and file storage. The only composition root. */
export const NodeLive = Layer.mergeAll(HttpLive, EntitiesLive, MetricsSamplerLive, OrphanBlobSweepLive).pipe(
  Layer.provide(AreasLive),
  Layer.provideMerge(Layer.merge(StorageLive, DrawingRenderer.layer)),
  Layer.provideMerge(ClusterLive),
  Layer.provideMerge(DatabaseLive),
  Layer.provide(Layer.merge(TracingLive, MetricsExportLive))
)
