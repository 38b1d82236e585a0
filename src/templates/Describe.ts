import type { Ratio } from "../drawing/Ratios.js"
import { fitContent } from "./Example.js"
import { contentFields } from "./format/Fields.js"
import type { Build, ResolvedBuild, Template } from "./format/Template.js"
import type { JsonSchema } from "./JsonSchema.js"
import { contentSchema } from "./JsonSchema.js"
import type { KeyNode } from "./Keys.js"
import { countLeafKeys, keyNodes } from "./Keys.js"

/** SPEC "Template input description": what one build accepts, three ways. */
export interface InputDescription {
  readonly templateId: string
  readonly templateName: string
  readonly variant: string
  readonly version: string
  readonly ratios: ReadonlyArray<Ratio>
  readonly keys: {
    readonly format: string
    readonly summary: string
    readonly keys: ReadonlyArray<KeyNode>
  }
  readonly jsonSchema: JsonSchema
  readonly example: unknown
}

const slug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")

/** The worked example of a build: the template's sample fitted to the build's inputs. */
export const buildExample = (template: Template, build: Build): unknown =>
  fitContent(contentFields(build.limits), template.sample)

// Builds are immutable, so a description computed once stays right.
const cache = new WeakMap<Build, InputDescription>()

export const describeBuild = ({ build, template, variant }: ResolvedBuild): InputDescription => {
  const cached = cache.get(build)
  if (cached !== undefined) return cached
  const fields = contentFields(build.limits)
  const example = buildExample(template, build)
  const keys = keyNodes(fields, example)
  const label = `${template.name} (${variant.name} ${build.version})`
  const description: InputDescription = {
    templateId: template.id,
    templateName: template.name,
    variant: variant.name,
    version: build.version,
    ratios: build.ratios,
    keys: {
      format: `${slug(template.name)}/${variant.name}@${build.version}`,
      summary: `${label} takes ${countLeafKeys(keys)} inputs: clipData is drawn in the clip, metaData writes the ` +
        "post text and is never drawn, and locales carries copy per language laid over the default.",
      keys
    },
    jsonSchema: contentSchema(label, fields, example),
    example
  }
  cache.set(build, description)
  return description
}
