import { createHash } from "node:crypto"
import type { Build, Template } from "./format/Template.js"

/** JSON with object keys sorted at every depth, so equal data always hashes equally. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, child]) => child !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`).join(",")}}`
  }
  return JSON.stringify(value)
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex")

export const buildSha = (build: Build): string => sha256(canonicalJson(build))

/** Covers every build of every variant, so it changes whenever the build behind any version changes. */
export const descriptorSha = (template: Template): string =>
  sha256(canonicalJson({
    templateId: template.id,
    variants: template.variants.map((variant) => ({ name: variant.name, builds: variant.builds }))
  }))
