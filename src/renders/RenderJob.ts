import { Schema } from "effect"

export const RenderJobState = Schema.Literal(
  "PENDING",
  "SUBMITTED",
  "RENDERING",
  "DOWNLOADING",
  "STORED",
  "COMPLETED",
  "PARTIAL",
  "FAILED",
  "TIMED_OUT",
  "CANCELLED"
)
export type RenderJobState = typeof RenderJobState.Type

export const TerminalState = Schema.Literal("COMPLETED", "PARTIAL", "FAILED", "TIMED_OUT", "CANCELLED")
export type TerminalState = typeof TerminalState.Type

export const isTerminal = (state: RenderJobState): state is TerminalState => Schema.is(TerminalState)(state)

/**
 * The terminal states as an SQL list, for `sql.literal`: written out rather than bound, so a query's predicate
 * matches the partial indexes on open renders (migration 0017) as PostgreSQL compares them.
 */
export const TERMINAL_STATES_SQL = `(${TerminalState.literals.map((state) => `'${state}'`).join(", ")})`

/** One output (ratio × locale) of a render job, as its row in `render_outputs` moves. */
export const RenderOutputState = Schema.Literal("pending", "rendering", "succeeded", "failed", "timed_out")
export type RenderOutputState = typeof RenderOutputState.Type

export const ExportStatus = Schema.Literal("queued", "rendering", "succeeded", "failed", "timed_out", "cancelled")
export type ExportStatus = typeof ExportStatus.Type

/** The export status a render job state shows as. */
export const exportStatusOf = (state: RenderJobState): ExportStatus => {
  switch (state) {
    case "PENDING":
    case "SUBMITTED":
      return "queued"
    case "RENDERING":
    case "DOWNLOADING":
    case "STORED":
      return "rendering"
    case "COMPLETED":
    case "PARTIAL":
      return "succeeded"
    case "FAILED":
      return "failed"
    case "TIMED_OUT":
      return "timed_out"
    case "CANCELLED":
      return "cancelled"
  }
}

export const RenderOutputSpec = Schema.Struct({ ratio: Schema.String, locale: Schema.String })

/** Everything the renderer is handed: enough to draw the job again on any node (`/render-jobs/{id}/package`). */
export const RenderPackage = Schema.Struct({
  template: Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    variant: Schema.String,
    version: Schema.String
  }),
  content: Schema.Unknown,
  brand: Schema.NullOr(Schema.Struct({ id: Schema.String, name: Schema.String })),
  channel: Schema.NullOr(Schema.Struct({ id: Schema.String, name: Schema.String })),
  options: Schema.Struct({
    outputs: Schema.Array(RenderOutputSpec),
    priority: Schema.Boolean
  })
})
export type RenderPackage = typeof RenderPackage.Type
