/** SPEC Versioning 1: routes that keep answering with `Deprecation: true` until the next major release. */
const deprecatedRoutes: ReadonlyArray<RegExp> = [
  /^\/v1\/connections(\/mode)?\/?$/,
  /^\/v1\/channels\/[^/]+\/credentials(\/delete)?\/?$/,
  /^\/v1\/connector(\/.*)?$/
]

export const isDeprecatedRoute = (pathname: string): boolean => deprecatedRoutes.some((route) => route.test(pathname))
