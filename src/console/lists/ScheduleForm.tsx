import type { Template } from "../../templates/format/Template.js"

export const FIELDS = ["title", "templateId", "templateVariant", "templateVersion", "scheduledFor", "data"] as const
export type Field = (typeof FIELDS)[number]

/** The form as sent (or as first shown): every field as text. */
export type ScheduleValues = Record<Field, string>
export type FieldErrors = Partial<Record<Field, ReadonlyArray<string>>>

export interface ScheduleFormProps {
  readonly action: string
  readonly values: ScheduleValues
  readonly errors: FieldErrors
  readonly templates: ReadonlyArray<Template>
  readonly zone: string
}

const describedBy = (field: Field, errors: FieldErrors, hint = false) => {
  const ids = [hint ? `${field}-hint` : "", errors[field] === undefined ? "" : `${field}-error`].filter((id) => id)
  return ids.length === 0 ? undefined : ids.join(" ")
}

const FieldError = ({ errors, field }: { readonly errors: FieldErrors; readonly field: Field }) =>
  errors[field] === undefined ? "" : (
    <ul class="field-error" id={`${field}-error`}>
      {errors[field].map((message) => <li safe>{message}</li>)}
    </ul>
  )

const invalid = (field: Field, errors: FieldErrors) => errors[field] === undefined ? undefined : "true"

const variantsHint = (templates: ReadonlyArray<Template>) =>
  `Empty for the first. ${templates.map((t) => `${t.name}: ${t.variants.map((v) => v.name).join(", ")}`).join("; ")}.`

/** Schedules a post on a list: checked against the template's build as the API checks it, errors by their fields. */
export const ScheduleForm = ({ action, errors, templates, values, zone }: ScheduleFormProps) => (
  <form method="post" action={action} class="card schedule" aria-labelledby="schedule-heading" novalidate>
    <h2 id="schedule-heading">Schedule a post</h2>
    {Object.keys(errors).length === 0 ?
      "" :
      <p class="notice error" role="alert">Nothing was scheduled: correct the fields marked below.</p>}
    <label for="title">Title</label>
    <input
      id="title"
      name="title"
      type="text"
      maxlength="120"
      value={values.title}
      aria-invalid={invalid("title", errors)}
      aria-describedby={describedBy("title", errors)}
    />
    <FieldError errors={errors} field="title" />
    <label for="templateId">Template</label>
    <select
      id="templateId"
      name="templateId"
      aria-invalid={invalid("templateId", errors)}
      aria-describedby={describedBy("templateId", errors)}
    >
      {templates.map((t) => <option value={t.id} selected={t.id === values.templateId} safe>{t.name}</option>)}
    </select>
    <FieldError errors={errors} field="templateId" />
    <label for="templateVariant">Variant</label>
    <input
      id="templateVariant"
      name="templateVariant"
      type="text"
      value={values.templateVariant}
      aria-invalid={invalid("templateVariant", errors)}
      aria-describedby={describedBy("templateVariant", errors, true)}
    />
    <p class="muted hint" id="templateVariant-hint" safe>{variantsHint(templates)}</p>
    <FieldError errors={errors} field="templateVariant" />
    <label for="templateVersion">Version</label>
    <input
      id="templateVersion"
      name="templateVersion"
      type="text"
      value={values.templateVersion}
      aria-invalid={invalid("templateVersion", errors)}
      aria-describedby={describedBy("templateVersion", errors, true)}
    />
    <p class="muted hint" id="templateVersion-hint">Empty or latest for the newest build when it fires, or 1.2.3.</p>
    <FieldError errors={errors} field="templateVersion" />
    <label for="scheduledFor">Time</label>
    <input
      id="scheduledFor"
      name="scheduledFor"
      type="datetime-local"
      step="1"
      value={values.scheduledFor}
      aria-invalid={invalid("scheduledFor", errors)}
      aria-describedby={describedBy("scheduledFor", errors, true)}
    />
    <p class="muted hint" id="scheduledFor-hint" safe>{`In ${zone}. Empty for now.`}</p>
    <FieldError errors={errors} field="scheduledFor" />
    <label for="data">Content (JSON)</label>
    <textarea
      id="data"
      name="data"
      rows="12"
      spellcheck="false"
      aria-invalid={invalid("data", errors)}
      aria-describedby={describedBy("data", errors, true)}
      safe
    >
      {values.data}
    </textarea>
    <p class="muted hint" id="data-hint">
      The template's input: clipData is drawn in the clip, metaData writes the post text, locales holds copies per
      language.
    </p>
    <FieldError errors={errors} field="data" />
    <button type="submit">Schedule</button>
  </form>
)
