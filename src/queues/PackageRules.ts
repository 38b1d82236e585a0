import { Either, Option } from "effect"
import type { TemplateNotApproved, UnknownTemplate } from "../domain/Errors.js"
import { detailAt, ErrorDetail, SchemaValidation } from "../domain/Errors.js"
import { type BuildFields, refusedBuild } from "../templates/BuildRefusal.js"
import { notCleared } from "../templates/TemplateClearance.js"
import { findTemplate, isExactVersion, resolveBuild } from "../templates/TemplateRegistry.js"
import { validateContent } from "../templates/Validate.js"
import type { ChangePackageBody } from "./PostList.js"
import type { PackageContent } from "./PostListRecord.js"

export type PackageRefusal = SchemaValidation | UnknownTemplate | TemplateNotApproved

/** SPEC Limits "Scheduling": a time more than a minute past is refused. */
const PAST_TOLERANCE_MS = 60_000

const refuse = (path: string, message: string, rule: string) =>
  Either.left(new SchemaValidation({ message, details: [detailAt([path], message, rule)] }))

/** `now` or an instant, as epoch milliseconds; more than a minute past is 400 at `/scheduledFor`. */
export const timeOf = (scheduledFor: string, now: number): Either.Either<number, SchemaValidation> => {
  const at = scheduledFor === "now" ? now : Date.parse(scheduledFor)
  return at < now - PAST_TOLERANCE_MS
    ? refuse("scheduledFor", `scheduledFor ${scheduledFor} is more than one minute in the past.`, "notPast")
    : Either.right(at)
}

/** What the build choice is made of before the defaults: null or absent variant is the first, version `latest`. */
export interface BuildChoice {
  readonly templateId: string
  readonly templateVariant: string | null
  readonly templateVersion: string | null
}

/** Whether the workspace may draw with a template (`TemplateClearance.clearedFor`); by default every one. */
export type Cleared = (templateId: string) => boolean

const everyTemplate: Cleared = () => true

const choiceFields: BuildFields = { templateId: "templateId", variant: "templateVariant", version: "templateVersion" }

/**
 * The template must exist and be cleared for the workspace (offered by the registry and by the operator's
 * clearance, `cleared`), the variant be one of its own and the version exact (or `latest`, stored as null) with a
 * build; the content is checked against that build, its problems under `/data`.
 */
export const checkContent = (
  choice: BuildChoice,
  data: unknown,
  cleared: Cleared = everyTemplate
): Either.Either<Omit<PackageContent, "title" | "scheduledFor">, PackageRefusal> => {
  const { templateId } = choice
  const template = findTemplate(templateId)
  if (Option.isNone(template)) return Either.left(refusedBuild({ _tag: "UnknownTemplate", templateId }, choiceFields))
  if (!template.value.offered || !cleared(templateId)) return Either.left(notCleared(templateId, ["templateId"]))
  const version = choice.templateVersion === "latest" ? null : choice.templateVersion
  if (version !== null && !isExactVersion(version)) {
    return refuse(
      "templateVersion",
      `templateVersion must be \`latest\` or a full major.minor.patch, not "${version}".`,
      "pattern"
    )
  }
  const resolved = resolveBuild(templateId, {
    variant: choice.templateVariant ?? undefined,
    version: version ?? undefined
  })
  if (Either.isLeft(resolved)) return Either.left(refusedBuild(resolved.left, choiceFields))
  const { build, variant } = resolved.right
  const problems = validateContent(build, data)
  if (problems.length > 0) {
    return Either.left(
      new SchemaValidation({
        message: `The data does not fit ${template.value.name} ${variant.name} ${build.version}: ` +
          `${problems[0]!.path || "/"} ${problems[0]!.message}.`,
        details: problems.map((p) => new ErrorDetail({ ...p, path: `/data${p.path}` }))
      })
    )
  }
  return Either.right({ templateId, templateVariant: variant.name, templateVersion: version, data })
}

/** A create: every field sent, the defaults filled in. */
export const newContent = (
  body: { readonly title: string; readonly templateId: string; readonly data: unknown } & Partial<BuildChoice>,
  scheduledFor: number,
  cleared: Cleared = everyTemplate
): Either.Either<PackageContent, PackageRefusal> =>
  Either.map(
    checkContent(
      {
        templateId: body.templateId,
        templateVariant: body.templateVariant ?? null,
        templateVersion: body.templateVersion ?? null
      },
      body.data,
      cleared
    ),
    (checked) => ({ ...checked, title: body.title, scheduledFor })
  )

/**
 * A change laid over the stored package. A new template starts from its first variant and newest build unless the
 * change names them; whatever changed, the content is checked again against the build it would now draw with.
 */
export const changedContent = (
  stored: PackageContent,
  changes: Omit<ChangePackageBody, "scheduledFor" | "state">,
  scheduledFor: number | undefined,
  cleared: Cleared = everyTemplate
): Either.Either<PackageContent, PackageRefusal> => {
  const sameTemplate = changes.templateId === undefined || changes.templateId === stored.templateId
  const choice: BuildChoice = {
    templateId: changes.templateId ?? stored.templateId,
    templateVariant: changes.templateVariant !== undefined
      ? changes.templateVariant
      : sameTemplate
      ? stored.templateVariant
      : null,
    templateVersion: changes.templateVersion !== undefined
      ? changes.templateVersion
      : sameTemplate
      ? stored.templateVersion
      : null
  }
  return Either.map(
    checkContent(choice, changes.data === undefined ? stored.data : changes.data, cleared),
    (checked) => ({
      ...checked,
      title: changes.title ?? stored.title,
      scheduledFor: scheduledFor ?? stored.scheduledFor
    })
  )
}
