import { Context, Effect, Schema } from "effect"

/**
 * A workspace's id. Branded, so a repository that asks for one cannot be handed any other string: it comes from the
 * caller (`CurrentWorkspace`), from a decoded entity message, or from a row read in that workspace.
 */
export const WorkspaceId = Schema.String.pipe(Schema.brand("WorkspaceId"))
export type WorkspaceId = typeof WorkspaceId.Type

/** Who is calling, and in which workspace: resolved once per request by the security middleware. */
export interface Principal {
  readonly kind: "apikey" | "platform" | "anonymous" | "user"
  readonly workspaceId: WorkspaceId
  readonly workspaceName: string
  readonly keyId: string
  readonly scopes: ReadonlyArray<string>
  /** A signed-in person (`kind: "user"`): who, and their role in this workspace. */
  readonly person?: Person | undefined
}

export type PersonRole = "owner" | "operations" | "member"

export interface Person {
  readonly email: string
  readonly role: PersonRole
}

/** What a caller's actions are recorded as: `user:<email>` for a person, `apikey:<id>` for a key. */
export const actorOf = (principal: Principal): string =>
  principal.person !== undefined ? `user:${principal.person.email}` : `apikey:${principal.keyId}`

/** The calling key and its workspace: the tenancy of every `/v1` handler. */
export class CurrentWorkspace
  extends Context.Tag("clipwright/domain/CurrentWorkspace")<CurrentWorkspace, Principal>()
{}

/** Runs `f` in the caller's workspace. */
export const inWorkspace = <A, E, R>(f: (workspaceId: WorkspaceId) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(CurrentWorkspace, (caller) => f(caller.workspaceId))

export const anonymous: Principal = {
  kind: "anonymous",
  workspaceId: WorkspaceId.make(""),
  workspaceName: "",
  keyId: "",
  scopes: []
}
