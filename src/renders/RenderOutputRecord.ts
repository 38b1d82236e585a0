import { Model } from "@effect/sql"
import { Schema } from "effect"
import { RenderOutputState } from "./RenderJob.js"

/**
 * One output (ratio × locale) of a render job: its row in `render_outputs`, keyed by job, ratio and locale. It has
 * no workspace of its own: it is its render job's, and every query reaches it through `render_jobs`.
 */
export class RenderOutputRecord extends Model.Class<RenderOutputRecord>("RenderOutputRecord")({
  renderJobId: Model.GeneratedByApp(Schema.String),
  ratio: Model.GeneratedByApp(Schema.String),
  locale: Model.GeneratedByApp(Schema.String),
  state: Model.Generated(RenderOutputState),
  progress: Model.Generated(Schema.Number),
  error: Model.Generated(Schema.NullOr(Schema.String)),
  clipId: Model.Generated(Schema.NullOr(Schema.String))
}) {}
