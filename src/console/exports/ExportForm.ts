import { Either, ParseResult, Schema } from "effect"
import { type ApiErrorLike, codeByTag, detailAt, type ErrorDetail, statusOf } from "../../domain/Errors.js"
import { decodeDetails } from "../../http/Envelope.js"
import { VideoBody } from "../../renders/exports/Export.js"

/** One template and variant a person may start from, at its newest build. */
export interface TemplateChoice {
  /** `<templateId>/<variant>`: the value of the template select. */
  readonly key: string
  readonly label: string
}

/** The build chosen, as the describe service answers it: the example prefilled and the ratios offered. */
export interface ChosenBuild {
  readonly key: string
  readonly templateId: string
  readonly templateName: string
  readonly variant: string
  readonly version: string
  readonly ratios: ReadonlyArray<string>
  readonly example: unknown
}

/** What the person sent (shown again as sent when it is refused). */
export interface StartFields {
  readonly template: string
  readonly version: string
  readonly ratio: string
  readonly title: string
  readonly data: string
}

/** A refusal of the start form: the API's message, its details (each at a JSON pointer) and its HTTP status. */
export interface StartProblem {
  readonly message: string
  readonly details: ReadonlyArray<ErrorDetail>
  readonly status: number
}

export const choiceKey = (templateId: string, variant: string) => `${templateId}/${variant}`

export const parseChoice = (key: string) => {
  const slash = key.indexOf("/")
  return slash <= 0 ? undefined : { templateId: key.slice(0, slash), variant: key.slice(slash + 1) }
}

export const StartForm = Schema.Struct({
  template: Schema.optional(Schema.String),
  version: Schema.optional(Schema.String),
  ratio: Schema.optional(Schema.String),
  title: Schema.optional(Schema.String),
  data: Schema.optional(Schema.String)
})

export const fieldsOf = (form: typeof StartForm.Type): StartFields => ({
  template: form.template ?? "",
  version: form.version ?? "",
  ratio: form.ratio ?? "",
  title: form.title ?? "",
  data: form.data ?? ""
})

const refused = (message: string, details: ReadonlyArray<ErrorDetail>): StartProblem => ({
  message,
  details,
  status: 400
})

/**
 * The form as `POST /v1/direct-export/video` takes it, checked as that route's decoding checks it: JSON that does not
 * parse and fields that do not fit are 400 with a detail per field. What the service refuses after is `problemOf`.
 */
export const toVideoBody = (fields: StartFields): Either.Either<VideoBody, StartProblem> => {
  const choice = parseChoice(fields.template)
  if (choice === undefined) {
    return Either.left(refused("Choose a template.", [detailAt(["templateId"], "choose a template", "required")]))
  }
  let data: unknown
  try {
    data = JSON.parse(fields.data)
  } catch (error) {
    const reason = error instanceof Error ? error.message : "not JSON"
    return Either.left(refused("The data is not JSON.", [detailAt(["data"], `not JSON: ${reason}`, "json")]))
  }
  const title = fields.title.trim()
  const body = {
    templateId: choice.templateId,
    variant: choice.variant,
    version: fields.version,
    ratio: fields.ratio,
    data,
    ...(title === "" ? {} : { title })
  }
  return Schema.decodeUnknownEither(VideoBody, { errors: "all" })(body).pipe(
    Either.mapLeft((error) => {
      const details = decodeDetails(ParseResult.ArrayFormatter.formatErrorSync(error))
      return refused("The export does not fit the expected shape.", details)
    })
  )
}

/** A refusal of the export service, with the status the API answers it with. */
export const problemOf = (error: ApiErrorLike): StartProblem => {
  const code = codeByTag[error._tag]
  return { message: error.message, details: error.details, status: code === undefined ? 400 : statusOf(code) }
}

/** Which field of the form a detail's pointer names: the data, the ratio, the title, or the template. */
export const fieldOfDetail = (path: string): "data" | "ratio" | "title" | "template" => {
  if (path === "/data" || path.startsWith("/data/")) return "data"
  if (path === "/ratio" || path === "/locale") return "ratio"
  if (path === "/title") return "title"
  return "template"
}
