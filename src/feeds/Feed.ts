import { Schema } from "effect"
import { ReferenceListing } from "../templates/TemplateShapes.js"

const describe = (description: string) => ({ description })

const JsonDocument = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const FeedSchedule = Schema.Struct({
  every: Schema.String.annotations(describe("`hour`, `day`, `weekday`, a weekday name, or `event`.")),
  time: Schema.NullOr(Schema.String).annotations(describe("`HH:MM` (UTC), or null when not sent at a time of day."))
}).annotations({ identifier: "FeedSchedule" })

/** What every view of a shipped feed shows of it: its identity, binding, age limit and schedule. */
export const feedFields = {
  id: Schema.String.annotations(describe("`fd_` + 12 hex characters; stable, never reused.")),
  slug: Schema.String,
  name: Schema.String,
  title: Schema.String,
  description: Schema.String,
  templateId: Schema.String,
  templateName: Schema.String,
  templateVariant: Schema.String,
  maxAgeSeconds: Schema.NullOr(Schema.Int).annotations(describe("Events older than this are `stale`; null: any age.")),
  live: Schema.Boolean,
  schedule: FeedSchedule,
  scheduleLabel: Schema.String
}

/** A format of the shipped catalogue, with the payload its template accepts at the feed's variant's newest build. */
export const CatalogueFormat = Schema.Struct({
  ...feedFields,
  payloadSchema: JsonDocument.annotations(
    describe("The feed's `data` as a JSON Schema (draft 2020-12), from the template's newest build.")
  )
}).annotations({ identifier: "CatalogueFormat" })

export const CatalogueSource = Schema.Struct({
  slug: Schema.String,
  milestone: Schema.Int,
  entitled: Schema.Boolean.annotations(
    describe(
      "With a key: whether the caller's workspace may switch the source's feeds on. Without: whether a " +
        "new workspace is entitled to it (the source is included by default)."
    )
  ),
  live: Schema.Boolean,
  formats: Schema.Array(CatalogueFormat)
}).annotations({ identifier: "CatalogueSource" })

export const Catalogue = Schema.Struct({ sources: Schema.Array(CatalogueSource) }).annotations({
  identifier: "Catalogue"
})
export type Catalogue = typeof Catalogue.Type

/** The example clips of a feed: its template's variants and builds, with the shapes each build draws. */
export const FeedReferenceListing = Schema.Struct({
  feedId: Schema.String,
  sourceSlug: Schema.String,
  formatSlug: Schema.String,
  templateVariant: Schema.String.annotations(describe("The feed's variant: the clip route's default `variant`.")),
  ...ReferenceListing.fields
}).annotations({ identifier: "FeedReferenceListing" })

export const Entitlements = Schema.Struct({
  sources: Schema.Array(Schema.String).annotations(describe("Source slugs the workspace is entitled to."))
}).annotations({ identifier: "Entitlements" })
