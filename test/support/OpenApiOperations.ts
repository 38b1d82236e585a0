import { MARKET } from "./Routes.js"

/** Values for the path parameters that are not record ids (a slug, a template, a ratio, a slot, a language): the same in every call. */
export const FIXED_PARAMS: Readonly<Record<string, string>> = {
  source: "markets",
  format: "index-close",
  templateId: MARKET,
  feedId: "fd_4b1e9c2a7d03",
  ratio: "9x16",
  slot: "logo",
  language: "python",
  platform: "youtube",
  code: "not_found"
}

/** One operation of the served OpenAPI document. */
export interface Operation {
  readonly method: string
  readonly path: string
  readonly name: string
  readonly permission: string | undefined
  readonly keySecured: boolean
  readonly pathParams: ReadonlyArray<string>
}

export const operationsOf = (document: Record<string, any>): ReadonlyArray<Operation> =>
  Object.entries<Record<string, any>>(document["paths"]).flatMap(([path, methods]) =>
    Object.entries<Record<string, any>>(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      name: `${method.toUpperCase()} ${path}`,
      permission: operation["x-permission"],
      keySecured: (operation["security"]?.length ?? 0) > 0,
      pathParams: (operation["parameters"] ?? [])
        .filter((p: { in: string }) => p.in === "path")
        .map((p: { name: string }) => p.name)
    }))
  )

/** The path with each `{param}` replaced by `values[param]`. */
export const fillPath = (path: string, values: Record<string, string>) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`no value for {${name}} in ${path}`)
    return encodeURIComponent(value)
  })

/** A path parameter that names a record by id (as opposed to a slug, ratio, slot or language). */
export const isIdLike = (param: string) => /id$/i.test(param)
