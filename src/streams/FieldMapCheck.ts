import { ErrorDetail, toPointer } from "../domain/Errors.js"
import { contentFields, type Field } from "../templates/format/Fields.js"
import type { Build } from "../templates/format/Template.js"
import { isLocale } from "../templates/Locales.js"
import type { FieldMap } from "./Stream.js"

const parsePointer = (pointer: string): ReadonlyArray<string> | undefined =>
  pointer === "" ? [] : pointer.startsWith("/")
    ? pointer.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    : undefined

/**
 * A place of the template's input document a field-map key may name: one input (a group, a list, a list item or a
 * leaf), one language copy (`/locales/<locale>`, the content's inputs laid over the default) or the map of copies.
 */
export type Place =
  | { readonly _tag: "Input"; readonly field: Field }
  | { readonly _tag: "Copy"; readonly fields: ReadonlyArray<Field> }
  | { readonly _tag: "Copies"; readonly fields: ReadonlyArray<Field> }

const inputAt = (fields: ReadonlyArray<Field>, segments: ReadonlyArray<string>): Field | undefined => {
  let found: Field | undefined
  for (const segment of segments) {
    if (found?.type === "list") {
      if (!/^(0|[1-9]\d*)$/.test(segment) || Number(segment) >= found.maxItems) return undefined
      found = found.item
    } else {
      found = fields.find((f) => f.key === segment)
      if (found === undefined) return undefined
    }
    fields = found.type === "group" ? found.fields : []
  }
  return found
}

/** The place a pointer into the template's input document names; `/locales/<locale>/...` has the default's shape. */
export const placeAt = (build: Build, pointer: string): Place | undefined => {
  const segments = parsePointer(pointer)
  if (segments === undefined || segments.length === 0) return undefined
  const fields = contentFields(build.limits)
  if (segments[0] === "locales") {
    if (segments.length === 1) return { _tag: "Copies", fields }
    if (!isLocale(segments[1]!)) return undefined
    if (segments.length === 2) return { _tag: "Copy", fields }
  }
  const field = inputAt(fields, segments[0] === "locales" ? segments.slice(2) : segments)
  return field === undefined ? undefined : { _tag: "Input", field }
}

/**
 * The rules of a field-map entry (SPEC "Stream"): the key is a JSON Pointer into the template's input document,
 * exactly one of `from` and `const`, `from` a JSON Pointer into the posted data. Paths point into the request body.
 * The value an entry brings is checked when the document is validated, not here.
 */
export const checkFieldMap = (build: Build, fieldMap: FieldMap): ReadonlyArray<ErrorDetail> =>
  Object.entries(fieldMap).flatMap(([key, entry]) => {
    const at = (...rest: Array<string>) => toPointer(["fieldMap", key, ...rest])
    const problems: Array<ErrorDetail> = []
    if (!key.startsWith("/")) {
      problems.push(
        new ErrorDetail({
          path: at(),
          message: `"${key}" is not a JSON Pointer (it must start with /).`,
          rule: "pointer"
        })
      )
    } else if (placeAt(build, key) === undefined) {
      problems.push(
        new ErrorDetail({ path: at(), message: `The template has no input at ${key}.`, rule: "unknownField" })
      )
    }
    const hasFrom = entry.from !== undefined
    const hasConst = Object.hasOwn(entry, "const")
    if (hasFrom === hasConst) {
      problems.push(new ErrorDetail({ path: at(), message: "Give exactly one of from and const.", rule: "oneOf" }))
    }
    if (hasFrom && entry.from !== "" && !entry.from!.startsWith("/")) {
      problems.push(
        new ErrorDetail({
          path: at("from"),
          message: "from must be a JSON Pointer into the posted data.",
          rule: "pointer"
        })
      )
    }
    return problems
  })
