import { Effect, Either } from "effect"
import { BrandLooks } from "../../brands/BrandLooks.js"
import type { BrandRef } from "../../brands/BrandLooks.js"
import { detailAt, ErrorDetail, LocaleNotSupported, RatioNotSupported, SchemaValidation } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { canDraw } from "../../drawing/Locales.js"
import { type BuildFields, refusedBuild } from "../../templates/BuildRefusal.js"
import type { ResolvedBuild } from "../../templates/format/Template.js"
import { TemplateClearance } from "../../templates/TemplateClearance.js"
import { isExactVersion, resolveBuild } from "../../templates/TemplateRegistry.js"
import { validateContent } from "../../templates/Validate.js"

export interface BuildRequest {
  readonly templateId: string
  readonly version?: string | undefined
  readonly variant?: string | undefined
  readonly brandId?: string | null | undefined
  readonly data: unknown
}

const exportFields: BuildFields = { templateId: "templateId", variant: "variant", version: "version" }

/** The build a direct export means; an exact version is required (SPEC Versioning 7). */
export const resolveExportBuild = (body: BuildRequest, versionRequired: boolean) => {
  if (versionRequired && (body.version === undefined || !isExactVersion(body.version))) {
    return Effect.fail(
      new SchemaValidation({
        message: "Direct export needs an exact version: major.minor.patch.",
        details: [detailAt(["version"], "an exact major.minor.patch version is required", "pattern")]
      })
    )
  }
  return Either.match(resolveBuild(body.templateId, { variant: body.variant, version: body.version }), {
    onLeft: (error) => Effect.fail(refusedBuild(error, exportFields)),
    onRight: (resolved) => Effect.succeed(resolved)
  })
}

/**
 * Every refusal of the start table that does not need the allowance, for every output, before anything starts; with
 * the workspace, also the operator's clearance of the template (409 naming `/templateId`), the brand (404 naming
 * `/brandId`) and the content's pictures, which must be in its media library. Answers the brand the export wears.
 */
export const checkExport = (
  resolved: ResolvedBuild,
  body: BuildRequest,
  outputs: ReadonlyArray<{ ratio: string; locale: string }>,
  workspaceId?: WorkspaceId
) =>
  Effect.gen(function*() {
    const looks = yield* BrandLooks
    if (workspaceId !== undefined) yield* (yield* TemplateClearance).requireCleared(workspaceId, resolved.template.id)
    const brand: BrandRef | null = workspaceId === undefined || body.brandId === undefined || body.brandId === null
      ? null
      : yield* looks.find(workspaceId, body.brandId)
    const ratios = [...new Set(outputs.map((o) => o.ratio))]
    const badRatio = ratios.find((r) => !(resolved.build.ratios as ReadonlyArray<string>).includes(r))
    if (badRatio !== undefined) {
      return yield* new RatioNotSupported({
        message: `${resolved.template.name} ${resolved.variant.name} ${resolved.build.version} does not come in ` +
          `${badRatio}; it draws ${resolved.build.ratios.join(", ")}.`
      })
    }
    const badLocale = outputs.find((o) => !canDraw(o.locale))
    if (badLocale !== undefined) {
      return yield* new LocaleNotSupported({ message: `Nothing is drawn in ${badLocale.locale}.` })
    }
    const problems = validateContent(resolved.build, body.data)
    if (problems.length > 0) {
      return yield* new SchemaValidation({
        message: "The content does not fit the template build.",
        details: problems.map((p) => new ErrorDetail({ ...p, path: `/data${p.path}` }))
      })
    }
    const missing = workspaceId === undefined ? [] : yield* looks.pictureProblems(workspaceId, body.data)
    if (missing.length > 0) {
      return yield* new SchemaValidation({ message: "A picture is not in the media library.", details: missing })
    }
    return { brand }
  })
