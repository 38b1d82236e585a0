import { Layer } from "effect"
import { Templates } from "./Templates.js"
import { TemplatesHttpLive } from "./TemplatesHttp.js"

/** The template catalogue and format descriptions (read-only, from the shipped builds). */
export const TemplatesLive = TemplatesHttpLive.pipe(Layer.provideMerge(Templates.layer))
