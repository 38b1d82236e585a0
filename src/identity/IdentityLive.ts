import { Layer } from "effect"
import { AdminToken } from "../http/AdminToken.js"
import { AdminAuthenticationLive, AuthenticationLive } from "../http/SecurityLive.js"
import { AdminHttpLive } from "./AdminHttp.js"
import { Identity } from "./Identity.js"
import { IdentityHttpLive } from "./IdentityHttp.js"
import { IdentityRepo } from "./IdentityRepo.js"

/**
 * Workspaces, keys, members and the admin routes. Keys are this area's, so it also answers the edge's `ApiKeys`
 * port and offers the edge's two security middlewares to every area's routes.
 */
export const IdentityLive = Layer.mergeAll(IdentityHttpLive, AdminHttpLive).pipe(
  Layer.provideMerge(Layer.merge(AuthenticationLive, AdminAuthenticationLive)),
  Layer.provideMerge(Identity.apiKeys),
  Layer.provideMerge(Layer.mergeAll(Identity.layer, AdminToken.layer)),
  Layer.provideMerge(IdentityRepo.layer)
)
