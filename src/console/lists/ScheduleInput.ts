import { Either, Schema } from "effect"
import type { ErrorDetail } from "../../domain/Errors.js"
import { PackageTitle } from "../../queues/PostList.js"
import { buildExample } from "../../templates/Describe.js"
import type { Template } from "../../templates/format/Template.js"
import { newestBuild } from "../../templates/TemplateRegistry.js"
import { instantOfLocalInput } from "../calendar/ZoneTime.js"
import { type Field, type FieldErrors, FIELDS, type ScheduleValues } from "./ScheduleForm.js"

export const ScheduleFormBody = Schema.Struct(
  Object.fromEntries(FIELDS.map((field) => [field, Schema.optional(Schema.String)])) as Record<
    Field,
    Schema.optional<typeof Schema.String>
  >
)

/** The form as first shown: the first template's first variant, with its worked example as the content. */
export const blankValues = (templates: ReadonlyArray<Template>): ScheduleValues => {
  const template = templates[0]
  const build = template?.variants[0] === undefined ? undefined : newestBuild(template.variants[0])
  return {
    title: "",
    templateId: template?.id ?? "",
    templateVariant: "",
    templateVersion: "",
    scheduledFor: "",
    data: template === undefined || build === undefined
      ? "{}"
      : JSON.stringify(buildExample(template, build), null, 2)
  }
}

export const valuesOf = (body: { readonly [K in Field]?: string | undefined }): ScheduleValues => ({
  title: body.title ?? "",
  templateId: body.templateId ?? "",
  templateVariant: body.templateVariant ?? "",
  templateVersion: body.templateVersion ?? "",
  scheduledFor: body.scheduledFor ?? "",
  data: body.data ?? ""
})

/** The API's create body read from the form, or what is wrong with each field that cannot be read at all. */
export const readSchedule = (values: ScheduleValues, zone: string, now: number) => {
  const errors: Record<string, Array<string>> = {}
  const title = Schema.decodeUnknownEither(PackageTitle)(values.title.trim())
  if (Either.isLeft(title)) {
    errors["title"] = [values.title.trim() === "" ? "Enter a title." : "A title has at most 120 characters."]
  }
  const at = values.scheduledFor.trim() === "" ? now : instantOfLocalInput(values.scheduledFor.trim(), zone)
  if (at === undefined) errors["scheduledFor"] = ["Enter a date and time, like 2026-12-07 14:05."]
  let data: NonNullable<unknown> | null = null
  try {
    data = JSON.parse(values.data) as NonNullable<unknown> | null
  } catch (error) {
    errors["data"] = [`This is not JSON: ${error instanceof Error ? error.message : String(error)}.`]
  }
  if (Object.keys(errors).length > 0 || Either.isLeft(title) || at === undefined) {
    return Either.left(errors as FieldErrors)
  }
  const blankless = (text: string) => text.trim() === "" ? null : text.trim()
  return Either.right({
    title: title.right,
    templateId: values.templateId,
    templateVariant: blankless(values.templateVariant),
    templateVersion: blankless(values.templateVersion),
    scheduledFor: new Date(at).toISOString(),
    data
  })
}

const fieldOfPath = (path: string): Field => {
  const first = path.split("/")[1] ?? ""
  return (FIELDS as ReadonlyArray<string>).includes(first) ? first as Field : "data"
}

/** The API's refusal laid on the form's fields: each detail by the field its path names (content under data). */
export const errorsOfRefusal = (
  refusal: { readonly message: string; readonly details?: ReadonlyArray<ErrorDetail> | undefined },
  fallback: Field
): FieldErrors => {
  const errors: Partial<Record<Field, Array<string>>> = {}
  const details = refusal.details ?? []
  if (details.length === 0) errors[fallback] = [refusal.message]
  for (const detail of details) {
    const field = fieldOfPath(detail.path)
    const where = field === "data" && detail.path !== "/data" ? `${detail.path.slice("/data".length)}: ` : ""
    errors[field] = [...(errors[field] ?? []), `${where}${detail.message}`]
  }
  return errors
}
