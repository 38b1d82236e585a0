import { contentFields } from "./format/Fields.js"
import type { Field, ListField, NumberField, TextField } from "./format/Fields.js"
import type { Build } from "./format/Template.js"
import { isLocale } from "./Locales.js"

/** One problem in a content document; `path` is an RFC 6901 JSON Pointer from the content root. */
export interface ValidationDetail {
  readonly path: string
  readonly message: string
  readonly rule?: string
  readonly expected?: string
  readonly received?: string
}

type Path = ReadonlyArray<string | number>

export const jsonPointer = (path: Path): string =>
  path.map((segment) => "/" + String(segment).replace(/~/g, "~0").replace(/\//g, "~1")).join("")

export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const jsonType = (value: unknown): string => value === null ? "null" : Array.isArray(value) ? "array" : typeof value

const clip = (value: string): string => {
  const points = [...value]
  return points.length > 120 ? points.slice(0, 119).join("") + "…" : value
}

/** Decimal places of a number as JSON writes it (`1.5e-7` has 8). */
export const decimalPlaces = (value: number): number => {
  const [mantissa = "", exponent = "0"] = Math.abs(value).toString().split("e")
  const fraction = mantissa.split(".")[1]?.length ?? 0
  return Math.max(0, fraction - Number(exponent))
}

const localeExpectation = "ISO 639-1 code, zh-CN, zh-TW or pt-BR"

class Checker {
  readonly details: Array<ValidationDetail> = []

  report(path: Path, message: string, rule: string, expected?: string, received?: string): void {
    this.details.push({
      path: jsonPointer(path),
      message,
      rule,
      ...(expected === undefined ? {} : { expected }),
      ...(received === undefined ? {} : { received })
    })
  }

  typeError(label: string, path: Path, expected: string, value: unknown): void {
    this.report(
      path,
      `${label} must be ${expected === "array" ? "a list" : `a JSON ${expected}`}`,
      "type",
      expected,
      jsonType(value)
    )
  }

  field(field: Field, value: unknown, path: Path, relaxed: number): void {
    switch (field.type) {
      case "text":
        return this.text(field, value, path)
      case "number":
        return this.number(field, value, path)
      case "enum":
        if (typeof value !== "string") return this.typeError(field.label, path, "string", value)
        if (!field.values.includes(value)) {
          this.report(
            path,
            `${field.label} must be one of ${field.values.join(", ")}`,
            "enum",
            field.values.join(" | "),
            clip(value)
          )
        }
        return
      case "list":
        return this.list(field, value, path)
      case "group":
        return this.group(field.label, field.fields, value, path, relaxed)
    }
  }

  text(field: TextField, value: unknown, path: Path): void {
    if (typeof value !== "string") return this.typeError(field.label, path, "string", value)
    const length = [...value].length
    if (field.required && length === 0) {
      this.report(path, `${field.label} must not be empty`, "minLength", "at least 1 character", "0 characters")
    }
    if (length > field.maxLength) {
      this.report(
        path,
        `${field.label} is ${length} characters long; at most ${field.maxLength} allowed`,
        "maxLength",
        `at most ${field.maxLength} characters`,
        `${length} characters`
      )
    }
    if (field.pattern !== undefined && !new RegExp(field.pattern.regex, "u").test(value)) {
      this.report(path, field.pattern.message, "pattern", field.pattern.expected, clip(value))
    }
  }

  number(field: NumberField, value: unknown, path: Path): void {
    if (typeof value !== "number" || !Number.isFinite(value)) return this.typeError(field.label, path, "number", value)
    const places = decimalPlaces(value)
    if (places > field.decimals) {
      this.report(
        path,
        `${field.label} has ${places} decimal places; at most ${field.decimals} allowed`,
        "decimals",
        `at most ${field.decimals} decimal places`,
        `${places} decimal places`
      )
    }
  }

  list(field: ListField, value: unknown, path: Path): void {
    if (!Array.isArray(value)) return this.typeError(field.label, path, "array", value)
    if (value.length > field.maxItems) {
      this.report(
        path,
        `${field.label} has ${value.length} items; at most ${field.maxItems} allowed`,
        "maxItems",
        `at most ${field.maxItems} items`,
        `${value.length} items`
      )
    }
    value.forEach((item, index) => this.field(field.item, item, [...path, index], 0))
  }

  /** `relaxed` > 0 makes this level's inputs optional (locale copy), counting down through nested groups. */
  group(
    label: string,
    fields: ReadonlyArray<Field>,
    value: unknown,
    path: Path,
    relaxed: number,
    extraKeys: ReadonlyArray<string> = []
  ): void {
    if (!isRecord(value)) return this.typeError(label, path, "object", value)
    for (const field of fields) {
      const child = Object.hasOwn(value, field.key) ? value[field.key] : undefined
      if (child === undefined) {
        if (field.required && relaxed === 0) this.report([...path, field.key], `${field.label} is required`, "required")
      } else {
        this.field(field, child, [...path, field.key], Math.max(0, relaxed - 1))
      }
    }
    const known = new Set([...fields.map((field) => field.key), ...extraKeys])
    for (const key of Object.keys(value)) {
      if (!known.has(key)) {
        this.report(
          [...path, key],
          `"${clip(key)}" is not an input of this template build`,
          "additionalProperties",
          [...known].join(", "),
          clip(key)
        )
      }
    }
  }

  locales(fields: ReadonlyArray<Field>, value: unknown): void {
    if (!isRecord(value)) return this.typeError("Locales", ["locales"], "object", value)
    for (const [locale, copy] of Object.entries(value)) {
      if (!isLocale(locale)) {
        this.report(
          ["locales", locale],
          `"${clip(locale)}" is not a supported locale`,
          "locale",
          localeExpectation,
          clip(locale)
        )
      }
      this.group(`Copy for ${clip(locale)}`, fields, copy, ["locales", locale], 2)
    }
  }
}

/**
 * Checks a content document against a build and reports every problem found, in document order.
 * An empty result means the content is accepted by the build.
 */
export const validateContent = (build: Build, content: unknown): ReadonlyArray<ValidationDetail> => {
  const fields = contentFields(build.limits)
  const checker = new Checker()
  checker.group("The content", fields, content, [], 0, ["locales"])
  if (isRecord(content) && Object.hasOwn(content, "locales")) checker.locales(fields, content["locales"])
  return checker.details
}
