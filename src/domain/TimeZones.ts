/** IANA time zones, through the runtime's Intl data (no table of ours to keep current). */
export const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone })
    return true
  } catch {
    return false
  }
}

const wallClock = (zone: string, at: number) => {
  const parts = new Intl.DateTimeFormat("en", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric"
  }).formatToParts(at)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return [part("year"), part("month"), part("day"), part("hour"), part("minute"), part("second")] as const
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
export const offsetAt = (zone: string, at: number): number => {
  const [y, mo, d, h, mi, s] = wallClock(zone, at)
  return Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(at / 1000) * 1000
}

/** A wall-clock time in a zone as an instant; the offset is looked up twice so a DST change in between is honoured. */
export const wallClockIn = (zone: string, fields: ReadonlyArray<number>): number => {
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = fields
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s)
  const first = asUtc - offsetAt(zone, asUtc)
  return asUtc - offsetAt(zone, first)
}

const two = (n: number) => String(n).padStart(2, "0")

/** An instant as ISO 8601 in a zone's wall-clock time with its offset, e.g. `2026-11-23T09:30:00+01:00`. */
export const isoIn = (date: Date, zone: string): string => {
  const at = date.getTime()
  const [y, mo, d, h, mi, s] = wallClock(zone, at)
  const offset = Math.round(offsetAt(zone, at) / 60_000)
  const sign = offset < 0 ? "-" : "+"
  const abs = Math.abs(offset)
  return `${y}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`
}
