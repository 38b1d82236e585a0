import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, Unauthenticated } from "../domain/Errors.js"
import { CurrentWorkspace } from "../domain/Principal.js"

/** Bearer API key → the calling workspace, with the route's permission checked before the body is read. */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Schema.Union(Unauthenticated, Forbidden),
  provides: CurrentWorkspace,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** `Authorization: Bearer $ADMIN_TOKEN` for the operator routes under /admin. */
export class AdminAuthentication extends HttpApiMiddleware.Tag<AdminAuthentication>()("AdminAuthentication", {
  failure: Unauthenticated,
  security: { bearer: HttpApiSecurity.bearer }
}) {}
