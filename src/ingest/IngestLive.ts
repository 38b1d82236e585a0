import { Layer } from "effect"
import { BroadcastHttpLive } from "./BroadcastHttp.js"
import { BroadcastRepo } from "./BroadcastRepo.js"
import { Broadcasts } from "./Broadcasts.js"
import { FeedEvents } from "./FeedEvents.js"
import { FeedIngestHttpLive } from "./FeedIngestHttp.js"
import { IngestEvents } from "./IngestEvents.js"
import { IngestEventsHttpLive } from "./IngestEventsHttp.js"
import { IngestEventsQuery } from "./IngestEventsQuery.js"
import { IngestLedger } from "./IngestLedger.js"
import { IngestTargets } from "./IngestTargets.js"
import { StreamSendHttpLive } from "./StreamSendHttp.js"
import { StreamSends } from "./StreamSends.js"

/** Events in: streams, feeds and broadcasts become events and jobs, and the ingest log reads them back. */
export const IngestLive = Layer.mergeAll(
  StreamSendHttpLive,
  FeedIngestHttpLive,
  BroadcastHttpLive,
  IngestEventsHttpLive
)
  .pipe(
    Layer.provideMerge(Layer.mergeAll(StreamSends.layer, Broadcasts.layer, IngestEvents.layer)),
    Layer.provideMerge(FeedEvents.layer),
    Layer.provideMerge(IngestTargets.layer),
    Layer.provideMerge(Layer.mergeAll(IngestLedger.layer, BroadcastRepo.layer, IngestEventsQuery.layer))
  )
