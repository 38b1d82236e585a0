import type { Ratio } from "../drawing/Ratios.js"
import { describeBuild } from "./Describe.js"
import { descriptorSha } from "./Descriptor.js"
import type { Build, ResolvedBuild, Template, Variant } from "./format/Template.js"
import type { JsonSchema } from "./JsonSchema.js"
import { countLeafKeys } from "./Keys.js"
import { listTemplates, newestBuild, registrySyncedAt } from "./TemplateRegistry.js"

/** SPEC "Template (workspace view)". Build-level fields describe the newest build of the first variant. */
export interface TemplateWorkspaceView {
  readonly templateId: string
  readonly offered: boolean
  readonly version: string
  readonly name: string
  readonly contentStyle: string
  readonly family: string
  readonly milestone: number
  readonly ratios: ReadonlyArray<Ratio>
  readonly duration: Build["duration"]
  readonly subvariants: ReadonlyArray<string>
  readonly overridableStyle: ReadonlyArray<string>
  readonly inputSchema: JsonSchema
  readonly variants: ReadonlyArray<{ readonly name: string; readonly versions: ReadonlyArray<string> }>
  readonly descriptorSha: string
  readonly syncedAt: string
}

export interface CatalogueEntry {
  readonly id: string
  readonly name: string
  readonly family: string
  readonly description: string
  readonly variants: ReadonlyArray<string>
}

export interface ShelfEntry {
  readonly templateId: string
  readonly templateName: string
  readonly variant: string
  readonly version: string
  readonly keys: number
}

export interface ReferenceListing {
  readonly templateId: string
  readonly name: string
  readonly variants: ReadonlyArray<{
    readonly name: string
    readonly versions: ReadonlyArray<{ readonly version: string; readonly ratios: ReadonlyArray<Ratio> }>
  }>
}

const builtVariants = (template: Template): ReadonlyArray<Variant> =>
  template.variants.filter((variant) => variant.builds.length > 0)

/** The default build of a template: first variant with a build, newest build. */
export const defaultBuild = (template: Template): ResolvedBuild | undefined => {
  const variant = builtVariants(template)[0]
  const build = variant === undefined ? undefined : newestBuild(variant)
  return variant === undefined || build === undefined ? undefined : { template, variant, build }
}

export const workspaceView = (template: Template): TemplateWorkspaceView | undefined => {
  const resolved = defaultBuild(template)
  if (resolved === undefined) return undefined
  const { build } = resolved
  return {
    templateId: template.id,
    offered: template.offered,
    version: build.version,
    name: template.name,
    contentStyle: template.contentStyle,
    family: template.family,
    milestone: template.milestone,
    ratios: build.ratios,
    duration: build.duration,
    subvariants: template.subvariants,
    overridableStyle: template.overridableStyle,
    inputSchema: describeBuild(resolved).jsonSchema,
    variants: builtVariants(template).map((variant) => ({
      name: variant.name,
      versions: variant.builds.map((candidate) => candidate.version)
    })),
    descriptorSha: descriptorSha(template),
    syncedAt: registrySyncedAt
  }
}

export const catalogueEntry = (template: Template): CatalogueEntry => ({
  id: template.id,
  name: template.name,
  family: template.family,
  description: template.description,
  variants: builtVariants(template).map((variant) => variant.name)
})

/** One entry per template and variant, at the variant's newest build. */
export const shelfEntries = (templates: ReadonlyArray<Template> = listTemplates()): ReadonlyArray<ShelfEntry> =>
  templates.flatMap((template) =>
    builtVariants(template).flatMap((variant) => {
      const build = newestBuild(variant)
      if (build === undefined) return []
      const description = describeBuild({ template, variant, build })
      return [{
        templateId: template.id,
        templateName: template.name,
        variant: variant.name,
        version: build.version,
        keys: countLeafKeys(description.keys.keys)
      }]
    })
  )

export const referenceListing = (template: Template): ReferenceListing => ({
  templateId: template.id,
  name: template.name,
  variants: builtVariants(template).map((variant) => ({
    name: variant.name,
    versions: variant.builds.map((build) => ({ version: build.version, ratios: build.ratios }))
  }))
})
