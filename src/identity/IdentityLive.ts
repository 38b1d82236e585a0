import { Layer } from "effect"
import { AdminToken } from "../http/AdminToken.js"
import { AdminAuthenticationLive, AuthenticationLive } from "../http/SecurityLive.js"
import { TemplateClearance } from "../templates/TemplateClearance.js"
import { AdminHttpLive } from "./AdminHttp.js"
import { Identity } from "./Identity.js"
import { IdentityHttpLive } from "./IdentityHttp.js"
import { IdentityRepo } from "./IdentityRepo.js"

/**
 * Workspaces, keys, members and the admin routes. Keys are this area's, so it also answers the edge's `ApiKeys`
 * port and offers the edge's two security middlewares to every area's routes. The operator's template clearance is
 * set here and offered to every area that draws with a template.
 */
export const IdentityLive = Layer.mergeAll(IdentityHttpLive, AdminHttpLive).pipe(
  Layer.provideMerge(Layer.mergeAll(AuthenticationLive, AdminAuthenticationLive, TemplateClearance.layer)),
  Layer.provideMerge(Identity.apiKeys),
  Layer.provideMerge(Layer.mergeAll(Identity.layer, AdminToken.layer)),
  Layer.provideMerge(IdentityRepo.layer)
)
