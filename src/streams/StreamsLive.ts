import { Layer } from "effect"
import { StreamRepo } from "./StreamRepo.js"
import { Streams } from "./Streams.js"
import { StreamsHttpLive } from "./StreamsHttp.js"

/** Stream configuration: the routes, the service, and the repository the stream entity writes through. */
export const StreamsLive = StreamsHttpLive.pipe(
  Layer.provideMerge(Streams.layer),
  Layer.provideMerge(StreamRepo.layer)
)
