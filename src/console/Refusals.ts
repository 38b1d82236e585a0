import { HttpServerResponse } from "@effect/platform"
import { htmlPage } from "./ConsoleResponse.js"
import { refusedPage } from "./SignInPages.js"

/** The console's refusals: a small page each, with the status `/v1` answers for the same cause. */
export const notFoundPage = (thing: string) =>
  htmlPage(refusedPage("Not found", `There is no such ${thing} in this workspace.`), 404)

export const notAllowedPage = (message: string) => htmlPage(refusedPage("Not allowed", message), 403)

export const notUnderstoodPage = (message: string) => htmlPage(refusedPage("Not understood", message), 400)

/** The entity could not be asked just now (busy, or moving between nodes): try again in two seconds. */
export const busyPage = (message: string) =>
  HttpServerResponse.setHeader(htmlPage(refusedPage("Busy", message), 503), "retry-after", "2")
