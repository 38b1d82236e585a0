import { Context, type Effect, type Option } from "effect"
import type { Principal } from "../domain/Principal.js"

/**
 * The port through which the edge resolves a bearer key into its caller. The identity area implements it; the edge
 * stands below every area, so it names only this interface.
 */
export class ApiKeys extends Context.Tag("clipwright/http/ApiKeys")<ApiKeys, {
  readonly authenticate: (apiKey: string) => Effect.Effect<Option.Option<Principal>>
}>() {}
