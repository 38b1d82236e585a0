import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { htmlPage } from "../ConsoleResponse.js"
import { CurrentPerson, makeSignedIn } from "../ConsoleSession.js"
import { AttentionQuery } from "./AttentionQuery.js"
import { homePage } from "./HomePage.js"

/** `/console`: who is signed in and what needs attention now in their workspace. */
export const HomeRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const attention = yield* AttentionQuery
    const signedIn = yield* makeSignedIn
    yield* router.get(
      "/console",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        return htmlPage(homePage(person, yield* attention.of(person.workspaceId)))
      }))
    )
  })
)
