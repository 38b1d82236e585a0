import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, Unauthenticated } from "../domain/Errors.js"
import { CurrentWorkspace } from "../domain/Principal.js"

/**
 * A person's session cookie, as the console sets it (`__Host-clipwright_session` when `PUBLIC_BASE_URL` is https).
 * Named here for the OpenAPI document; the middleware reads the cookie under the name the node's address calls for.
 */
const session = HttpApiSecurity.apiKey({ in: "cookie", key: "clipwright_session" }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "A person's session, from signing in at `/console/sign-in`; named `__Host-clipwright_session` when the service " +
      "is served over https. The person's role decides: owner everything, operations what a `*` key may, member " +
      "reads. A POST, PUT, PATCH or DELETE from another site is 403."
  )
)

/** Bearer API key, or a person's session → the calling workspace, the route's permission checked before the body. */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Schema.Union(Unauthenticated, Forbidden),
  provides: CurrentWorkspace,
  security: { bearer: HttpApiSecurity.bearer, session }
}) {}

/** `Authorization: Bearer $ADMIN_TOKEN` for the operator routes under /admin. */
export class AdminAuthentication extends HttpApiMiddleware.Tag<AdminAuthentication>()("AdminAuthentication", {
  failure: Unauthenticated,
  security: { bearer: HttpApiSecurity.bearer }
}) {}
