import { Either } from "effect"
import { detailAt, type ErrorDetail } from "../domain/Errors.js"
import { isInstant } from "../domain/Instants.js"
import { isTimeZone, wallClockIn } from "../domain/TimeZones.js"

const local = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/

export interface Schedule {
  readonly publishAt: Date | null
  readonly timezone: string | null
}

/**
 * When a feed event's posts go out. Only origin `manual` may say: `publishAt` is an instant with a zone, or a wall-clock
 * time (`2026-11-24T09:00`) read in `timezone` (an IANA zone). A time more than a minute past is refused (SPEC Limits).
 */
export const scheduleOf = (
  body: { readonly origin: string; readonly publishAt?: string | undefined; readonly timezone?: string | undefined },
  now: number
): Either.Either<Schedule, ReadonlyArray<ErrorDetail>> => {
  const { publishAt, timezone } = body
  if (body.origin !== "manual") {
    const misplaced = [
      ...(publishAt === undefined ? [] : [detailAt(["publishAt"], "accepted only with origin manual")]),
      ...(timezone === undefined ? [] : [detailAt(["timezone"], "accepted only with origin manual")])
    ]
    return misplaced.length > 0 ? Either.left(misplaced) : Either.right({ publishAt: null, timezone: null })
  }
  if (timezone !== undefined && !isTimeZone(timezone)) {
    return Either.left([detailAt(["timezone"], "an IANA time zone, such as Europe/Berlin")])
  }
  if (publishAt === undefined) return Either.right({ publishAt: null, timezone: timezone ?? null })
  let at: number
  if (isInstant(publishAt)) {
    at = Date.parse(publishAt)
  } else {
    const fields = local.exec(publishAt)
    if (fields === null) {
      return Either.left([detailAt(["publishAt"], "an ISO 8601 instant, or a local date and time with timezone")])
    }
    if (timezone === undefined) {
      return Either.left([detailAt(["timezone"], "required when publishAt has no zone or offset")])
    }
    at = wallClockIn(timezone, fields.slice(1).map((f) => Number(f ?? 0)))
  }
  if (at < now - 60_000) return Either.left([detailAt(["publishAt"], "more than one minute in the past")])
  return Either.right({ publishAt: new Date(at), timezone: timezone ?? null })
}
