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

export const terminalStates: ReadonlyArray<RenderJobState> = ["COMPLETED", "PARTIAL", "FAILED", "TIMED_OUT", "CANCELLED"]
export const isTerminal = (state: string) => (terminalStates as ReadonlyArray<string>).includes(state)

export const ExportStatus = Schema.Literal("queued", "rendering", "succeeded", "failed", "timed_out", "cancelled")
export type ExportStatus = typeof ExportStatus.Type

/** The export status a render job state shows as. */
export const exportStatusOf = (state: string): ExportStatus => {
  switch (state) {
    case "PENDING":
    case "SUBMITTED":
      return "queued"
    case "COMPLETED":
    case "PARTIAL":
      return "succeeded"
    case "FAILED":
      return "failed"
    case "TIMED_OUT":
      return "timed_out"
    case "CANCELLED":
      return "cancelled"
    default:
      return "rendering"
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
