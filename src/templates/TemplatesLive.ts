import { Layer } from "effect"
import { AdminTemplatesHttpLive } from "./AdminTemplatesHttp.js"
import { TemplateClearance } from "./TemplateClearance.js"
import { Templates } from "./Templates.js"
import { TemplatesHttpLive } from "./TemplatesHttp.js"
import { TemplateSync } from "./TemplateSync.js"

/**
 * The template catalogue and format descriptions (from the shipped builds), each workspace's registry mirror, and the
 * operator's template clearance (its admin route, and the check offered to every area that draws with a template).
 */
export const TemplatesLive = Layer.merge(TemplatesHttpLive, AdminTemplatesHttpLive).pipe(
  Layer.provideMerge(Layer.mergeAll(Templates.layer, TemplateSync.layer, TemplateClearance.layer))
)
