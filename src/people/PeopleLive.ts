import { Effect, Layer } from "effect"
import { SessionCredentials } from "../http/SessionCredentials.js"
import { People } from "./People.js"
import { PeopleRepo } from "./PeopleRepo.js"
import { PgRateLimiter } from "./PgRateLimiterStore.js"
import { SignInMail } from "./SignInMail.js"

/** People and their sessions; answers the edge's `SessionCredentials` port so `/v1` takes a session like a key. */
export const PeopleLive = Layer.effect(
  SessionCredentials,
  Effect.map(People, (people) => ({ authenticate: people.authenticate }))
).pipe(
  Layer.provideMerge(People.layer),
  Layer.provide(Layer.mergeAll(PeopleRepo.layer, SignInMail.layer, PgRateLimiter))
)
