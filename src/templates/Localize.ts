import type { Content, LocaleCopy } from "./format/Template.js"
import { baseLanguage } from "./Locales.js"

const copyFor = (content: Content, locale: string): LocaleCopy | undefined => {
  const copies = content.locales ?? {}
  if (Object.hasOwn(copies, locale)) return copies[locale]
  const base = baseLanguage(locale)
  return base !== undefined && Object.hasOwn(copies, base) ? copies[base] : undefined
}

/**
 * The content as drawn for a locale: that locale's copy (or, for `pt-BR` and the like, the bare language's copy)
 * laid over the default, object by object, with lists replaced whole. The result carries no `locales`; a locale
 * without copy gets the default.
 */
export const localize = (content: Content, locale: string): Content => {
  const { locales: _locales, ...defaults } = content
  const copy = copyFor(content, locale)
  if (copy === undefined) return defaults
  const metaData = defaults.metaData === undefined && copy.metaData === undefined
    ? {}
    : { metaData: { ...defaults.metaData, ...copy.metaData } }
  return { clipData: { ...defaults.clipData, ...copy.clipData }, ...metaData }
}
