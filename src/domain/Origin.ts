import { Schema } from "effect"

/** Where an event's content comes from (SPEC: jobs, posts and ingest events carry it). */
export const Origin = Schema.Literal("shipped", "custom", "manual")
export type Origin = typeof Origin.Type
