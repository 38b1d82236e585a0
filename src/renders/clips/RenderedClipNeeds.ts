import { Effect, Layer } from "effect"
import { ClipNeeds } from "../../media/ClipNeeds.js"
import { ClipRepo } from "./ClipRepo.js"

/** Renders answering media's `ClipNeeds`: a clip is needed while a post on its render is still to be handed over. */
export const RenderedClipNeeds = Layer.effect(
  ClipNeeds,
  Effect.map(ClipRepo, (clips) => ClipNeeds.of({ neededIds: clips.neededIds }))
).pipe(Layer.provide(ClipRepo.layer))
