import { Context } from "effect"

/** Who is calling: resolved once per request by the authentication middleware. */
export interface Principal {
  readonly kind: "apikey" | "platform" | "anonymous"
  readonly accountId: string
  readonly accountName: string
  readonly keyId: string
  readonly scopes: ReadonlyArray<string>
}

export class CurrentPrincipal extends Context.Tag("clipwright/CurrentPrincipal")<CurrentPrincipal, Principal>() {}

export const anonymous: Principal = { kind: "anonymous", accountId: "", accountName: "", keyId: "", scopes: [] }
