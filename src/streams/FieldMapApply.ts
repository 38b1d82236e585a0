import type { Build } from "../templates/format/Template.js"
import { placeAt } from "./FieldMapCheck.js"
import { cutToLimits, type MapNote } from "./FieldMapCut.js"
import type { FieldMap, FieldMapEntry } from "./Stream.js"

const segmentsOf = (pointer: string) =>
  pointer === "" ? [] : pointer.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))

/** The value at a JSON Pointer, or undefined when it resolves to nothing (absent is not empty). */
export const resolvePointer = (document: unknown, pointer: string): unknown => {
  let current: unknown = document
  for (const segment of segmentsOf(pointer)) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, segment)) return undefined
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}

const setPointer = (document: Record<string, unknown>, pointer: string, value: unknown) => {
  const segments = segmentsOf(pointer)
  let current: Record<string, unknown> | Array<unknown> = document
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1
    const key = Array.isArray(current) ? Number(segment) : segment
    if (last) {
      ;(current as Record<string | number, unknown>)[key] = value
      return
    }
    const next = (current as Record<string | number, unknown>)[key]
    if (typeof next !== "object" || next === null) {
      const fresh = /^\d+$/.test(segments[i + 1] ?? "") ? [] : {}
      ;(current as Record<string | number, unknown>)[key] = fresh
      current = fresh
    } else {
      current = next as Record<string, unknown>
    }
  })
}

const coerce = (value: unknown, as: FieldMapEntry["as"]): unknown => {
  switch (as) {
    case undefined:
      return value
    case "string":
      return typeof value === "string" ? value : value === null ? value : JSON.stringify(value)
    case "number":
    case "integer": {
      const n = typeof value === "number"
        ? value
        : typeof value === "string" && value.trim() !== ""
        ? Number(value)
        : NaN
      if (Number.isNaN(n)) return value
      return as === "integer" ? Math.trunc(n) : n
    }
    case "boolean":
      return value === "true" ? true : value === "false" ? false : typeof value === "number" ? value !== 0 : value
    case "iso-date": {
      const date = typeof value === "string" || typeof value === "number" ? new Date(value) : undefined
      return date !== undefined && !Number.isNaN(date.getTime()) ? date.toISOString() : value
    }
  }
}

const depth = (pointer: string) => pointer.split("/").length

/**
 * Builds the template's input document from posted data; an empty map passes the data through unchanged. A key
 * below another (`/clipData/headline` beside `/clipData`) is laid over it, whatever order the map was stored in. Cuts
 * made by `maxLength` are reported to `notes` when given. The posted data itself is never changed.
 */
export const applyFieldMap = (build: Build, fieldMap: FieldMap, data: unknown, notes: Array<MapNote> = []): unknown => {
  const entries = Object.entries(fieldMap).sort(([a], [b]) => depth(a) - depth(b))
  if (entries.length === 0) return data
  const document: Record<string, unknown> = {}
  for (const [target, entry] of entries) {
    const raw = Object.hasOwn(entry, "const") ? entry.const : resolvePointer(data, entry.from ?? "")
    const value = raw === undefined ? entry.fallback : raw
    if (value === undefined) continue
    let coerced = structuredClone(coerce(value, entry.as))
    const place = placeAt(build, target)
    if (entry.maxLength === true && place !== undefined) coerced = cutToLimits(place, coerced, target, notes)
    setPointer(document, target, coerced)
  }
  return document
}
