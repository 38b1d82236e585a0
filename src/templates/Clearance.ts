import { Schema } from "effect"

/** `PUT /admin/workspaces/{accountId}/templates`: the whole list, or null to clear every template again. */
export const ClearanceBody = Schema.Struct({
  templateIds: Schema.NullOr(Schema.Array(Schema.String).pipe(Schema.maxItems(1000)))
})

/** The templates a workspace is cleared for now, in catalogue order; `restricted` false: every template. */
export const ClearedTemplates = Schema.Struct({
  templateIds: Schema.Array(Schema.String),
  restricted: Schema.Boolean
})
export type ClearedTemplates = typeof ClearedTemplates.Type
