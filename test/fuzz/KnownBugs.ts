import type { Case } from "./Cases.js"

/**
 * Faults the fuzz found that are not fixed yet. Each keeps its current (wrong) answer pinned, so the test passes today
 * and fails the day the fault is fixed, at which point its line goes.
 */
export interface KnownBug {
  readonly bug: string
  readonly matches: (c: Case) => boolean
  /** The problems the faulty answers show today (seen at least once); `alsoFine` cases it matches may answer well. */
  readonly problems: ReadonlyArray<string>
  readonly alsoFine?: boolean
}

export const knownBugs: ReadonlyArray<KnownBug> = []

/**
 * Refusable requests a route takes today (2xx, and it stores what it took). They run after the "nothing stored" count,
 * and their current answer is pinned: 2xx, or 409 when its twin (the same body under the other content type) was
 * taken first.
 */
export const knownTaken: ReadonlyArray<{ readonly bug: string; readonly route: string; readonly label: string }> = []

export const isKnownTaken = (c: Case) => knownTaken.some((k) => k.route === c.route && k.label === c.label)
