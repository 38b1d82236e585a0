import { Layer } from "effect"
import { Templates } from "./Templates.js"
import { TemplatesHttpLive } from "./TemplatesHttp.js"
import { TemplateSync } from "./TemplateSync.js"

/** The template catalogue and format descriptions (from the shipped builds), and each workspace's registry mirror. */
export const TemplatesLive = TemplatesHttpLive.pipe(
  Layer.provideMerge(Layer.merge(Templates.layer, TemplateSync.layer))
)
