import { Layer } from "effect"
import { StreamRepo } from "./StreamRepo.js"
import { Streams } from "./Streams.js"
import { StreamsHttpLive } from "./StreamsHttp.js"
import { StreamIngestHttpLive } from "./StreamIngestHttp.js"

/** Stream configuration and sending: the routes, the service, and the repository the stream entity writes through. */
export const StreamsLive = Layer.mergeAll(StreamsHttpLive, StreamIngestHttpLive).pipe(
  Layer.provideMerge(Streams.layer),
  Layer.provideMerge(StreamRepo.layer)
)
