import { GlobalFonts } from "@napi-rs/canvas"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import type { Script } from "./Locales.js"
import { scriptOf } from "./Locales.js"
import type { BrandMarks } from "./Scene.js"

const require = createRequire(import.meta.url)

interface Source {
  readonly pkg: string
  readonly file: string
  readonly family: string
}

const sources: Readonly<Record<"latin" | Exclude<Script, "latin">, Source>> = {
  latin: { pkg: "noto-sans", file: "NotoSans", family: "CW Sans" },
  "cjk-sc": { pkg: "noto-sans-sc", file: "NotoSansSC", family: "CW SC" },
  "cjk-tc": { pkg: "noto-sans-tc", file: "NotoSansTC", family: "CW TC" },
  "cjk-jp": { pkg: "noto-sans-jp", file: "NotoSansJP", family: "CW JP" },
  "cjk-kr": { pkg: "noto-sans-kr", file: "NotoSansKR", family: "CW KR" }
}

const weightDirs = ["400Regular", "700Bold"] as const

const registered = new Set<string>()

const registerSource = (source: Source): void => {
  if (registered.has(source.family)) return
  const root = dirname(require.resolve(`@expo-google-fonts/${source.pkg}/package.json`))
  for (const dir of weightDirs) {
    const path = join(root, dir, `${source.file}_${dir}.ttf`)
    if (GlobalFonts.registerFromPath(path, source.family) === null) throw new Error(`cannot register font ${path}`)
  }
  registered.add(source.family)
}

const registerBrand = (path: string | undefined, family: string): string | undefined => {
  if (path === undefined) return undefined
  if (!registered.has(family)) {
    if (GlobalFonts.registerFromPath(path, family) === null) throw new Error(`cannot register brand font ${path}`)
    registered.add(family)
  }
  return family
}

export interface FontStacks {
  /** CSS family list for headlines and values. */
  readonly heading: string
  readonly body: string
}

const quote = (families: ReadonlyArray<string | undefined>): string =>
  families.filter((f): f is string => f !== undefined).map((f) => `"${f}"`).join(", ")

/**
 * Registers (once per process) the fonts a locale needs and answers the family lists to draw with.
 * Latin first so digits and Latin words keep one design; the regional CJK font next so Han characters
 * take that region's forms.
 */
export const fontsFor = (locale: string, brand?: BrandMarks): FontStacks => {
  const script = scriptOf(locale)
  if (script === undefined) throw new Error(`no font draws locale ${locale}`)
  registerSource(sources.latin)
  const cjk = script === "latin" ? undefined : sources[script]
  if (cjk !== undefined) registerSource(cjk)
  const heading = registerBrand(brand?.headingFontPath, "CW Brand Heading")
  const body = registerBrand(brand?.bodyFontPath, "CW Brand Body")
  return {
    heading: quote([heading, sources.latin.family, cjk?.family]),
    body: quote([body ?? heading, sources.latin.family, cjk?.family])
  }
}

export const font = (weight: number, sizePx: number, stack: string): string =>
  `${weight} ${Math.max(1, Math.round(sizePx * 10) / 10)}px ${stack}`
