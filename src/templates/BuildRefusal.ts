import { Option } from "effect"
import { detailAt, SchemaValidation, UnknownTemplate } from "../domain/Errors.js"
import type { ResolveError } from "./TemplateRegistry.js"
import { findTemplate } from "./TemplateRegistry.js"

/**
 * The body fields a build choice was read from. `templateId` is absent where the request names no template itself
 * (a subscription draws with its stream's or feed's), so that refusal points at no field.
 */
export interface BuildFields {
  readonly templateId?: string
  readonly variant: string
  readonly version: string
}

const variantNames = (templateId: string) =>
  Option.match(findTemplate(templateId), {
    onNone: () => "none",
    onSome: (template) => template.variants.map((variant) => variant.name).join(", ")
  })

/** A build that cannot be resolved, worded the same wherever it is asked for: 404 `unknown_template`, 400 for a bad version. */
export const refusedBuild = (error: ResolveError, fields: BuildFields): UnknownTemplate | SchemaValidation => {
  switch (error._tag) {
    case "UnknownTemplate":
      return new UnknownTemplate({
        message: `No template ${error.templateId}.`,
        ...(fields.templateId === undefined ? {} : { details: [detailAt([fields.templateId], "no such template")] })
      })
    case "UnknownVariant":
      return new UnknownTemplate({
        message: `Template ${error.templateId} has no variant "${error.variant}"; ` +
          `its variants are ${variantNames(error.templateId)}.`,
        details: [detailAt([fields.variant], "no such variant")]
      })
    case "UnknownVersion":
      return new UnknownTemplate({
        message: `Template ${error.templateId} has no build ${error.version} of variant ${error.variant}.`,
        details: [detailAt([fields.version], "no such build")]
      })
    case "InvalidVersion": {
      const message = `${fields.version} must be \`latest\` or a full major.minor.patch, not "${error.version}".`
      return new SchemaValidation({ message, details: [detailAt([fields.version], message, "pattern")] })
    }
  }
}
