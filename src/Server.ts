import { HttpApiBuilder, HttpApiScalar, HttpMiddleware, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { ClusterLive } from "../cluster/Cluster.js"
import { EntitiesLive } from "../cluster/Entities.js"
import { ClipwrightApi } from "./Api.js"
import { BrandMediaHoldersLive, BrandsLive } from "./brands/BrandsLive.js"
import {
  ChannelBrandWearers,
  ChannelClipListeners,
  ChannelListeners,
  ChannelRenderListeners,
  ChannelsLive
} from "./channels/ChannelsLive.js"
import { JobRepo } from "./channels/jobs/JobRepo.js"
import { CredentialsLive } from "./channels/CredentialsHttp.js"
import { AppConfig } from "./Config.js"
import { DeliveriesLive } from "./deliveries/DeliveriesLive.js"
import { FeedsLive } from "./feeds/FeedsLive.js"
import { ErrorEnvelopeLive, requestContext } from "./http/RequestContext.js"
import { IdentityLive } from "./identity/IdentityLive.js"
import { IngestLive } from "./ingest/IngestLive.js"
import { JobViewsLive } from "./jobs/JobViewsLive.js"
import { PipelineViewsLive } from "./jobs/PipelineViewsLive.js"
import { DecisionsLive } from "./jobs/DecisionsLive.js"
import { MediaLive } from "./media/MediaLive.js"
import { MetricsExportLive } from "./observability/MetricsExport.js"
import { MetricsSamplerLive } from "./observability/MetricsSampler.js"
import { TracingLive } from "./observability/Tracing.js"
import { PostListMediaHoldersLive, PostListsLive } from "./queues/PostListsLive.js"
import { RenderedClipNeeds } from "./renders/clips/RenderedClipNeeds.js"
import { RendersLive } from "./renders/RendersLive.js"
import { DatabaseLive } from "./sql/Database.js"
import { LocalBlobStorage } from "./storage/LocalBlobStorage.js"
import { OrphanBlobSweepLive } from "./media/OrphanBlobs.js"
import { DrawingRenderer } from "./render/DrawingRenderer.js"
import { StreamsLive } from "./streams/StreamsLive.js"
import { SystemHttpLive } from "./system/SystemHttp.js"
import { TemplatesLive } from "./templates/TemplatesLive.js"

/** Every area, each standing on the ones below it (identity and templates at the bottom, post lists at the top). */
const AreasLive = PostListsLive.pipe(
  Layer.provideMerge(Layer.mergeAll(IngestLive, DecisionsLive, PipelineViewsLive, JobViewsLive, DeliveriesLive)),
  Layer.provideMerge(Layer.mergeAll(ChannelsLive, CredentialsLive)),
  Layer.provideMerge(FeedsLive),
  Layer.provideMerge(RendersLive),
  Layer.provideMerge(BrandsLive),
  Layer.provideMerge(MediaLive),
  // Media asks what holds a file: scheduled posts laid over brand slots.
  Layer.provideMerge(PostListMediaHoldersLive),
  Layer.provideMerge(BrandMediaHoldersLive),
  Layer.provideMerge(Layer.mergeAll(StreamsLive, TemplatesLive, SystemHttpLive)),
  Layer.provideMerge(IdentityLive),
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
  Layer.provideMerge(Layer.merge(LocalBlobStorage.layer, DrawingRenderer.layer)),
  Layer.provideMerge(ClusterLive),
  Layer.provideMerge(DatabaseLive),
  Layer.provide(Layer.merge(TracingLive, MetricsExportLive))
)
