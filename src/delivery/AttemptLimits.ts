/** CONTRACT: a receiver (webhook or SMTP server) that has not answered by then has failed the attempt. */
export const ANSWER_WITHIN_MS = 15_000

/** How much of a receiver's answer an attempt's record keeps. */
const KEEP_AT_MOST = 2 * 1024

export const excerpt = (text: string) => (text.length > KEEP_AT_MOST ? `${text.slice(0, KEEP_AT_MOST)}…` : text)
