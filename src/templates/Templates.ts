import { Context, Effect, Either, Layer, Option } from "effect"
import { ErrorDetail, SchemaValidation, UnknownTemplate } from "../domain/Errors.js"
import { describeBuild } from "./Describe.js"
import type { BuildSelector, ResolveError } from "./TemplateRegistry.js"
import { findTemplate, isExactVersion, listTemplates, resolveBuild } from "./TemplateRegistry.js"
import { catalogueEntry, referenceListing, shelfEntries, workspaceView } from "./Views.js"

export const invalidVersion = (version: string) =>
  new SchemaValidation({
    message: `The query parameter version must be \`latest\` or an exact major.minor.patch version; got "${version}".`,
    details: [
      new ErrorDetail({
        path: "/version",
        message: "The query parameter version must be `latest` or major.minor.patch.",
        rule: "pattern",
        expected: "latest | major.minor.patch",
        received: version
      })
    ]
  })

const variantNames = (templateId: string) =>
  Option.match(findTemplate(templateId), {
    onNone: () => "none",
    onSome: (template) => template.variants.map((variant) => variant.name).join(", ")
  })

/** A build that cannot be resolved, as the API answers it (404 unknown_template, or 400 for a bad version). */
export const unresolved = (error: ResolveError) => {
  switch (error._tag) {
    case "UnknownTemplate":
      return new UnknownTemplate({ message: `No template ${error.templateId}.` })
    case "UnknownVariant":
      return new UnknownTemplate({
        message: `Template ${error.templateId} has no variant "${error.variant}"; ` +
          `its variants are ${variantNames(error.templateId)}.`
      })
    case "UnknownVersion":
      return new UnknownTemplate({
        message: `Template ${error.templateId} has no build ${error.version} of variant ${error.variant}.`
      })
    case "InvalidVersion":
      return invalidVersion(error.version)
  }
}

const make = Effect.sync(() => {
  const list = Effect.fn("Templates.list")(function*() {
    const templates = listTemplates()
    return {
      catalogue: templates.map(catalogueEntry),
      templates: templates.flatMap((template) => workspaceView(template) ?? [])
    }
  })

  const reference = Effect.fn("Templates.reference")(function*(templateId: string) {
    const template = findTemplate(templateId)
    if (Option.isNone(template)) return yield* new UnknownTemplate({ message: `No template ${templateId}.` })
    return referenceListing(template.value)
  })

  const shelf = Effect.fn("Templates.shelf")(function*() {
    return { templates: shelfEntries() }
  })

  /** A malformed version is refused before any lookup: it is wrong whichever template it names. */
  const describe = Effect.fn("Templates.describe")(
    function*(templateId: string, query: BuildSelector) {
      if (query.version !== undefined && query.version !== "latest" && !isExactVersion(query.version)) {
        return yield* invalidVersion(query.version)
      }
      const resolved = resolveBuild(templateId, query)
      if (Either.isLeft(resolved)) return yield* unresolved(resolved.left)
      return describeBuild(resolved.right)
    }
  )

  return { list, reference, shelf, describe }
})

/** The shipped template registry as the API reads it; templates are the same for every workspace. */
export class Templates extends Context.Tag("clipwright/templates/Templates")<
  Templates,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Templates, make)
}
