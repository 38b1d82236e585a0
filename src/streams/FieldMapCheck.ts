import { ErrorDetail, toPointer } from "../domain/Errors.js"
import type { FieldMap } from "./Stream.js"
import { contentFields, type Field } from "../templates/Fields.js"
import { isLocale } from "../templates/Locales.js"
import type { Build } from "../templates/Template.js"

const parsePointer = (pointer: string): ReadonlyArray<string> | undefined =>
  pointer === "" ? [] : pointer.startsWith("/")
    ? pointer.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    : undefined

/**
 * The field a pointer into the template's input document names, if any (a list index counts as its item).
 * `/locales/<locale>/...` names the same field as the path after it: a language copy has the default's shape.
 */
export const fieldAt = (build: Build, pointer: string): Field | undefined => {
  const parsed = parsePointer(pointer)
  if (parsed === undefined) return undefined
  const segments = parsed[0] === "locales" ? (isLocale(parsed[1] ?? "") ? parsed.slice(2) : []) : parsed
  if (segments.length === 0) return undefined
  let fields: ReadonlyArray<Field> = contentFields(build.limits)
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

/**
 * The rules of a field-map entry (SPEC "Stream"): the key is a JSON Pointer into the template's input document,
 * exactly one of `from` and `const`, `from` a JSON Pointer into the posted data. Paths point into the request body.
 */
export const checkFieldMap = (build: Build, fieldMap: FieldMap): ReadonlyArray<ErrorDetail> =>
  Object.entries(fieldMap).flatMap(([key, entry]) => {
    const at = (...rest: Array<string>) => toPointer(["fieldMap", key, ...rest])
    const problems: Array<ErrorDetail> = []
    if (!key.startsWith("/")) {
      problems.push(new ErrorDetail({ path: at(), message: `"${key}" is not a JSON Pointer (it must start with /).`, rule: "pointer" }))
    } else if (fieldAt(build, key) === undefined) {
      problems.push(new ErrorDetail({ path: at(), message: `The template has no input at ${key}.`, rule: "unknownField" }))
    }
    const hasFrom = entry.from !== undefined
    const hasConst = Object.hasOwn(entry, "const")
    if (hasFrom === hasConst) {
      problems.push(new ErrorDetail({ path: at(), message: "Give exactly one of from and const.", rule: "oneOf" }))
    }
    if (hasFrom && entry.from !== "" && !entry.from!.startsWith("/")) {
      problems.push(new ErrorDetail({ path: at("from"), message: "from must be a JSON Pointer into the posted data.", rule: "pointer" }))
    }
    return problems
  })
