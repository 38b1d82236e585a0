import { Schema } from "effect"

// A date and a time of day with a zone (Z or an offset): an instant, not a wall-clock time.
const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** An ISO 8601 instant with its zone that is a real date. */
export const isInstant = (text: string): boolean => zoned.test(text) && !Number.isNaN(Date.parse(text))

/** Text that is an ISO 8601 instant with a zone (kept as written). */
export const InstantText = Schema.String.pipe(
  Schema.filter(isInstant, { message: () => "an ISO 8601 instant with a zone, such as 2026-11-23T08:30:00Z" })
).annotations({ examples: ["2026-11-23T08:30:00Z"] })
