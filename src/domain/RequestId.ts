import { FiberRef } from "effect"

/** The id of the request being served (the `x-request-id` header); also the primary key of its state changes. */
export const CurrentRequestId = FiberRef.unsafeMake("")
