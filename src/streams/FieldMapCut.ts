import { toPointer } from "../domain/Errors.js"
import type { Field } from "../templates/format/Fields.js"
import { isRecord } from "../templates/Validate.js"
import type { Place } from "./FieldMapCheck.js"

/** A value the map changed on the way in, for the sender to hear about (a `maxLength` cut). */
export interface MapNote {
  readonly path: string
  readonly message: string
}

const below = (at: string, key: string | number) => at + toPointer([key])

const cutInputs = (fields: ReadonlyArray<Field>, value: unknown, at: string, notes: Array<MapNote>): unknown => {
  if (!isRecord(value)) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => {
      const field = fields.find((f) => f.key === key)
      return [key, field === undefined ? child : cutField(field, child, below(at, key), notes)]
    })
  )
}

const cutField = (field: Field, value: unknown, at: string, notes: Array<MapNote>): unknown => {
  switch (field.type) {
    case "text": {
      if (typeof value !== "string") return value
      const points = [...value]
      if (points.length <= field.maxLength) return value
      notes.push({ path: at, message: `Cut from ${points.length} to ${field.maxLength} characters (maxLength).` })
      return points.slice(0, field.maxLength).join("")
    }
    case "list":
      return Array.isArray(value) ? value.map((item, i) => cutField(field.item, item, below(at, i), notes)) : value
    case "group":
      return cutInputs(field.fields, value, at, notes)
    default:
      return value
  }
}

/**
 * Cuts every over-long text at or below a place to the template's limit (`maxLength: true`), so a whole group, list
 * or language copy is cut as its single texts would be; anything else is left for validation to judge.
 */
export const cutToLimits = (place: Place, value: unknown, at: string, notes: Array<MapNote>): unknown => {
  switch (place._tag) {
    case "Input":
      return cutField(place.field, value, at, notes)
    case "Copy":
      return cutInputs(place.fields, value, at, notes)
    case "Copies":
      return isRecord(value)
        ? Object.fromEntries(
          Object.entries(value).map((
            [locale, copy]
          ) => [locale, cutInputs(place.fields, copy, below(at, locale), notes)])
        )
        : value
  }
}
