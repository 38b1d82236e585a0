/** "2026-12-07 14:05 UTC", how the console's logs print an instant. */
export const utcText = (iso: string | null) => iso === null ? "—" : `${iso.slice(0, 16).replace("T", " ")} UTC`

/** "AWAITING_APPROVAL" as "awaiting approval". */
export const stateText = (state: string) => state.toLowerCase().replaceAll("_", " ")
