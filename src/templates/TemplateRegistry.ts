import { Either, Option } from "effect"
import type { Build, ResolvedBuild, Template, Variant } from "./format/Template.js"
import { briefing } from "./shipped/Briefing.js"
import { marketMove } from "./shipped/MarketMove.js"
import { scoreboard } from "./shipped/Scoreboard.js"

/** When this registry release was cut; reported as `syncedAt` on the workspace view. */
export const registrySyncedAt = "2025-06-02T08:00:00.000Z"

const shipped: ReadonlyArray<Template> = [marketMove, briefing, scoreboard]

const hasBuild = (template: Template): boolean => template.variants.some((variant) => variant.builds.length > 0)

/** Every template of the registry that has at least one build, in catalogue order. */
export const listTemplates = (): ReadonlyArray<Template> => shipped.filter(hasBuild)

export const findTemplate = (templateId: string): Option.Option<Template> =>
  Option.fromNullable(listTemplates().find((template) => template.id === templateId))

export type ResolveError =
  | { readonly _tag: "UnknownTemplate"; readonly templateId: string }
  | { readonly _tag: "UnknownVariant"; readonly templateId: string; readonly variant: string }
  | { readonly _tag: "InvalidVersion"; readonly templateId: string; readonly version: string }
  | { readonly _tag: "UnknownVersion"; readonly templateId: string; readonly variant: string; readonly version: string }

export interface BuildSelector {
  readonly variant?: string | undefined
  readonly version?: string | undefined
}

const versionPattern = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/

/** An exact `major.minor.patch` pin (SPEC Versioning 3); `latest` is not a pin. */
export const isExactVersion = (version: string): boolean => versionPattern.test(version)

export const newestBuild = (variant: Variant): Build | undefined => variant.builds[variant.builds.length - 1]

/**
 * Picks the build a request means: first variant and newest build unless told otherwise; `latest` follows the
 * newest build.
 */
export const resolveBuild = (
  templateId: string,
  selector: BuildSelector = {}
): Either.Either<ResolvedBuild, ResolveError> => {
  const template = listTemplates().find((candidate) => candidate.id === templateId)
  if (template === undefined) return Either.left({ _tag: "UnknownTemplate", templateId })
  const variant = selector.variant === undefined
    ? template.variants[0]
    : template.variants.find((candidate) => candidate.name === selector.variant)
  if (variant === undefined) {
    return Either.left({ _tag: "UnknownVariant", templateId, variant: selector.variant ?? "" })
  }
  const version = selector.version ?? "latest"
  if (version !== "latest" && !isExactVersion(version)) {
    return Either.left({ _tag: "InvalidVersion", templateId, version })
  }
  const build = version === "latest"
    ? newestBuild(variant)
    : variant.builds.find((candidate) => candidate.version === version)
  if (build === undefined) {
    return Either.left({ _tag: "UnknownVersion", templateId, variant: variant.name, version })
  }
  return Either.right({ template, variant, build })
}
