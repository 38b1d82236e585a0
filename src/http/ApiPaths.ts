import { Schema } from "effect"

/** The `:id` of a route that names one record of the workspace. */
export const IdPath = Schema.Struct({ id: Schema.String })
