import { workspaceScopes } from "../domain/Permissions.js"
import type { PersonRole } from "../domain/Principal.js"

const reads = ["allowance:read", "received:read", ...workspaceScopes.filter((s) => s.endsWith(":read"))]

/**
 * What a role may do on `/v1`, in the permissions keys carry (CONTRACT "Who"): Operations what a `*` key may; a
 * member reads. The owner also has `*`; the owner-only routes ask for the role itself (SecurityLive).
 */
export const scopesOf = (role: PersonRole): ReadonlyArray<string> => role === "member" ? [...new Set(reads)] : ["*"]

export const roleLabel = (role: PersonRole) =>
  role === "owner" ? "Owner" : role === "operations" ? "Operations" : "Member"
