import { HttpApi, type HttpApiGroup } from "@effect/platform"
import { FORM_TYPE } from "./MediaType.js"

interface RouteShape {
  readonly method: string
  readonly pattern: RegExp
  readonly takesForm: boolean
}

const ESCAPE = /[.*+?^${}()|[\]\\]/g

/** `/v1/brands/:id/assets/:slot` as a pattern over a request path: each parameter one segment. */
const patternOf = (path: string) =>
  new RegExp(`^${path.split("/").map((s) => s.startsWith(":") ? "[^/]+" : s.replace(ESCAPE, "\\$&")).join("/")}$`)

/**
 * Whether a request goes to a route that takes JSON only, read from the contract: a route takes multipart/form-data
 * only where its payload says so (uploads, the receipt form). Without this the platform would read a form sent to
 * a JSON route as its body. Requests that match no route are left to the router (404).
 */
export const jsonOnlyRoute = (api: HttpApi.HttpApi<string, HttpApiGroup.HttpApiGroup.AnyWithProps>) => {
  const routes: Array<RouteShape> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, payloads }) => {
      routes.push({ method: endpoint.method, pattern: patternOf(endpoint.path), takesForm: payloads.has(FORM_TYPE) })
    }
  })
  return (method: string, url: string): boolean => {
    const path = url.split("?", 1)[0] ?? ""
    const matching = routes.filter((r) => r.method === method && r.pattern.test(path))
    return matching.length > 0 && matching.every((r) => !r.takesForm)
  }
}
