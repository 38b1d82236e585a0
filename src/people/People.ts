import { RateLimiter } from "@effect/experimental"
import { Context, Duration, Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { AppConfig } from "../Config.js"
import { RateLimited } from "../domain/Errors.js"
import { type Person, type Principal, WorkspaceId } from "../domain/Principal.js"
import { type Membership, PeopleRepo } from "./PeopleRepo.js"
import { scopesOf } from "./Roles.js"
import { SignInMail } from "./SignInMail.js"

/** 15 minutes, one use (CONTRACT "Sign-in by email link"). */
export const LINK_TTL_MS = 15 * 60 * 1000
/** Links one address may ask for, and one client, per window. */
export const LIMITS = { perAddress: 5, perClient: 20, window: Duration.minutes(15) } as const

/** Hashes of what browsers hold: a stolen table opens no session and spends no link. */
const digest = (secret: string) => crypto.createHash("sha256").update(secret).digest("hex")
/** 256 random bits, URL-safe. */
const newSecret = () => crypto.randomBytes(32).toString("base64url")

/** Where a person goes back to after signing in: one of the console's own pages, never another site. */
export const safeReturnTo = (next: string | undefined) =>
  next !== undefined && /^\/console(?:[/?][A-Za-z0-9\-._~%/?=&]*)?$/.test(next) && !next.includes("//")
    ? next
    : "/console"

/** A signed-in person as the console shows them: the workspace they are in now, and every one they may switch to. */
export interface SignedIn extends Person {
  readonly workspaceId: WorkspaceId
  readonly workspaceName: string
  readonly memberships: ReadonlyArray<Membership>
}

const make = Effect.gen(function*() {
  const repo = yield* PeopleRepo
  const mail = yield* SignInMail
  const limiter = yield* RateLimiter.RateLimiter
  const { publicBaseUrl } = yield* AppConfig

  const limit = (key: string, limitOf: number) =>
    limiter.consume({ key, limit: limitOf, window: LIMITS.window, algorithm: "fixed-window", onExceeded: "fail" }).pipe(
      Effect.catchAll((error) => {
        if (error.reason !== "Exceeded") return Effect.die(error)
        const seconds = Math.max(1, Math.ceil(Duration.toSeconds(error.retryAfter)))
        return new RateLimited({
          message: `Too many sign-in links asked for; try again in ${Math.ceil(seconds / 60)} minutes.`,
          retryAfterSeconds: seconds
        })
      })
    )

  const sendLink = Effect.fn("People.sendLink")(function*(email: string, returnTo: string) {
    const memberships = yield* repo.membershipsOf(email)
    if (memberships.length === 0) return
    const token = newSecret()
    yield* repo.insertLink({ tokenHash: digest(token), email, returnTo, ttlMs: LINK_TTL_MS })
    yield* mail.send({ to: email, link: `${publicBaseUrl}/console/sign-in/${token}` })
  })

  /**
   * Asks for a sign-in link. The answer is the same whether or not the address belongs to anyone, and comes as
   * fast: looking the address up and sending run after it.
   */
  const requestLink = Effect.fn("People.requestLink")(
    function*(email: string, client: string, next: string | undefined) {
      const address = email.trim().toLowerCase()
      yield* limit(`sign-in:client:${client}`, LIMITS.perClient)
      yield* limit(`sign-in:address:${address}`, LIMITS.perAddress)
      yield* Effect.forkDaemon(
        Effect.zipRight(repo.sweep, sendLink(address, safeReturnTo(next))).pipe(
          Effect.tapErrorCause((cause) => Effect.logError("A sign-in link could not be made", cause))
        )
      )
    }
  )

  const isLinkLive = (token: string) => repo.isLinkLive(digest(token))

  /**
   * Spends the link and opens a new session in the person's first workspace, under a new id whatever session the
   * browser held before (which ends), so no id planted before sign-in survives it. None when the link is spent,
   * expired or unknown, or the person belongs to no workspace any more.
   */
  const signIn = Effect.fn("People.signIn")(function*(token: string, previousSessionId: string) {
    const spent = yield* repo.spendLink(digest(token))
    if (Option.isNone(spent)) return Option.none()
    if (previousSessionId !== "") yield* repo.endSession(digest(previousSessionId))
    const memberships = yield* repo.membershipsOf(spent.value.email)
    const first = memberships[0]
    if (first === undefined) return Option.none()
    const sessionId = newSecret()
    yield* repo.insertSession({ idHash: digest(sessionId), email: spent.value.email, workspaceId: first.workspaceId })
    yield* Effect.logInfo("Person signed in").pipe(Effect.annotateLogs({ accountId: first.workspaceId }))
    return Option.some({ sessionId, returnTo: spent.value.returnTo })
  })

  const findSession = (sessionId: string) => {
    const idHash = digest(sessionId)
    return Effect.tap(
      repo.findSession(idHash),
      (found) => Option.isSome(found) && found.value.stale ? repo.touch(idHash) : Effect.void
    )
  }

  /** The caller a session is, as the API's security middleware wants it. */
  const authenticate = (sessionId: string) =>
    Effect.map(
      findSession(sessionId),
      Option.map((s): Principal => ({
        kind: "user",
        workspaceId: s.workspaceId,
        workspaceName: s.workspaceName,
        keyId: "",
        scopes: scopesOf(s.role),
        person: { email: s.email, role: s.role }
      }))
    )

  /** The person a session is, with the workspaces they may switch to, for the console's pages. */
  const signedIn = (sessionId: string) =>
    Effect.flatMap(findSession(sessionId), (found) =>
      Option.match(found, {
        onNone: () => Effect.succeedNone,
        onSome: (s) =>
          Effect.map(repo.membershipsOf(s.email), (memberships) =>
            Option.some<SignedIn>({
              email: s.email,
              role: s.role,
              workspaceId: s.workspaceId,
              workspaceName: s.workspaceName,
              memberships
            }))
      }))

  const signOut = (sessionId: string) => repo.endSession(digest(sessionId))

  const switchWorkspace = (sessionId: string, workspaceId: string) =>
    repo.switchWorkspace(digest(sessionId), WorkspaceId.make(workspaceId))

  return { requestLink, isLinkLive, signIn, authenticate, signedIn, signOut, switchWorkspace }
})

export class People extends Context.Tag("clipwright/people/People")<People, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(People, make)
}
