import { OpenApi } from "@effect/platform"

const deprecation = "Deprecated (answers carry `Deprecation: true`; removed in the next major release). "

/** An endpoint's line in the API reference (`summary`) and its paragraph (`description`). */
export const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

/** A deprecated endpoint: flagged as such, its paragraph opening with what deprecation means for a caller. */
export const deprecatedDoc = (summary: string, description: string) =>
  OpenApi.annotations({ summary, description: deprecation + description, deprecated: true })
