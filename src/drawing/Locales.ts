/**
 * Which locales the shipped fonts draw. Kept free of native imports so the service can answer
 * `locale_not_supported` without loading the canvas.
 */

export type Script = "latin" | "cjk-sc" | "cjk-tc" | "cjk-jp" | "cjk-kr"

// ISO 639-1 languages written in Latin, Cyrillic or Greek script, all covered by Noto Sans.
const alphabetic = [
  "af",
  "an",
  "ay",
  "az",
  "ba",
  "be",
  "bg",
  "bm",
  "br",
  "bs",
  "ca",
  "ce",
  "ch",
  "co",
  "cs",
  "cu",
  "cv",
  "cy",
  "da",
  "de",
  "ee",
  "el",
  "en",
  "eo",
  "es",
  "et",
  "eu",
  "ff",
  "fi",
  "fj",
  "fo",
  "fr",
  "fy",
  "ga",
  "gd",
  "gl",
  "gn",
  "gv",
  "ha",
  "ho",
  "hr",
  "ht",
  "hu",
  "hz",
  "ia",
  "id",
  "ie",
  "ig",
  "ik",
  "io",
  "is",
  "it",
  "kg",
  "ki",
  "kj",
  "kk",
  "kl",
  "kv",
  "kw",
  "ky",
  "la",
  "lb",
  "lg",
  "li",
  "ln",
  "lt",
  "lu",
  "lv",
  "mg",
  "mh",
  "mi",
  "mk",
  "mn",
  "ms",
  "mt",
  "na",
  "nb",
  "nd",
  "ng",
  "nl",
  "nn",
  "no",
  "nr",
  "nv",
  "ny",
  "oc",
  "om",
  "os",
  "pl",
  "pt",
  "qu",
  "rm",
  "rn",
  "ro",
  "ru",
  "rw",
  "sc",
  "se",
  "sg",
  "sk",
  "sl",
  "sm",
  "sn",
  "so",
  "sq",
  "sr",
  "ss",
  "st",
  "su",
  "sv",
  "sw",
  "tg",
  "tk",
  "tl",
  "tn",
  "to",
  "tr",
  "ts",
  "tt",
  "tw",
  "ty",
  "uk",
  "uz",
  "ve",
  "vi",
  "vo",
  "wa",
  "wo",
  "xh",
  "yo",
  "za",
  "zu",
  "av"
] as const

const regional: Readonly<Record<string, Script>> = {
  "zh-CN": "cjk-sc",
  "zh-TW": "cjk-tc",
  ja: "cjk-jp",
  ko: "cjk-kr",
  "pt-BR": "latin"
}

/** The regional forms drawn apart from their language (`pt-BR`, not `pt`), as the service spells them. */
export const regionalLocales: ReadonlyArray<string> = Object.keys(regional).filter((l) => l.includes("-"))

/** Every locale string the renderer accepts, as the service spells them. */
export const supportedLocales: ReadonlyArray<string> = [...alphabetic, ...Object.keys(regional)].sort()

const alphabeticSet: ReadonlySet<string> = new Set(alphabetic)

const canonical = (locale: string): string => {
  const [lang = "", region] = locale.trim().replace(/_/g, "-").split("-")
  const l = lang.toLowerCase()
  return region === undefined ? l : `${l}-${region.length === 2 ? region.toUpperCase() : region}`
}

/** The script family to draw a locale with, or undefined when no shipped font covers it. */
export const scriptOf = (locale: string): Script | undefined => {
  const c = canonical(locale)
  const exact = Object.hasOwn(regional, c) ? regional[c] : undefined
  if (exact !== undefined) return exact
  const [lang = "", region] = c.split("-")
  if (lang === "zh") {
    if (region === "TW" || region === "HK" || region === "MO" || region === "Hant") return "cjk-tc"
    return "cjk-sc"
  }
  if (lang === "ja" || lang === "ko") return regional[lang]
  return alphabeticSet.has(lang) ? "latin" : undefined
}

export const canDraw = (locale: string): boolean => scriptOf(locale) !== undefined
