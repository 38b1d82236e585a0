import { admin, client } from "./Client.js"
import type { TestNode } from "./Node.js"
import type { SmtpSink } from "./SmtpSink.js"

/** A sign-in link in an email's text; its group is the token. */
export const SIGN_IN_LINK = /https?:\/\/[^\s/]+\/console\/sign-in\/([A-Za-z0-9_-]+)/

/** The sign-in link of the newest email the sink took for `email`, waiting up to `timeoutMs` for it. */
export const signInLink = async (sink: SmtpSink, email: string, after: number, timeoutMs = 10_000) => {
  const messages = await sink.waitFor(after + 1, timeoutMs)
  const message = [...messages].reverse().find((m) => m.envelope.to.includes(email))
  const match = message === undefined ? null : SIGN_IN_LINK.exec(message.text ?? "")
  if (match === null) throw new Error(`no sign-in link for ${email} in ${messages.length} messages`)
  return { url: match[0], token: match[1]! }
}

/** The value a response's Set-Cookie gives `name`, with the cookie's attributes as written. */
export const setCookie = (headers: Headers, name: string) => {
  const line = headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
  if (line === undefined) return undefined
  const [pair = "", ...attributes] = line.split(";").map((s) => s.trim())
  return { value: pair.slice(name.length + 1), attributes, line }
}

export const SESSION_COOKIE = "clipwright_session"

/** A browser-like form POST from the console's own pages. */
export const formPost = (
  node: Pick<TestNode, "url">,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {}
) =>
  fetch(`${node.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin", ...headers },
    body: new URLSearchParams(fields).toString()
  })

/**
 * Signs `email` in over HTTP as a browser would (ask, read the link from the sink, Continue) and answers the
 * session id. The node must send mail to `sink`.
 */
export const signInOverHttp = async (node: Pick<TestNode, "url">, sink: SmtpSink, email: string) => {
  const before = sink.messages.length
  const asked = await formPost(node, "/console/sign-in", { email })
  if (asked.status !== 200) throw new Error(`sign-in form: ${asked.status} ${await asked.text()}`)
  const { token } = await signInLink(sink, email, before)
  const continued = await formPost(node, `/console/sign-in/${token}`, {})
  const cookie = setCookie(continued.headers, SESSION_COOKIE)
  if (continued.status !== 303 || cookie === undefined) throw new Error(`continue: ${continued.status}`)
  return cookie.value
}

/** Headers of a request carrying the session, sent from the console's own pages. */
export const withSession = (sessionId: string, extra: Record<string, string> = {}) => ({
  cookie: `${SESSION_COOKIE}=${sessionId}`,
  "sec-fetch-site": "same-origin",
  ...extra
})

/**
 * The console pages' three people: `owner`'s workspace `name` with `member` in it (role member), and `other`, the
 * owner of another workspace; with a client holding a key of every scope of the first.
 */
export const deskOfThree = async (
  node: TestNode,
  name: string,
  people: { readonly owner: string; readonly member: string; readonly other: string }
) => {
  const a = admin(node)
  const ws = await a.workspace(name, people.owner)
  const api = client(node, (await a.key(ws.accountId, ["*"])).apiKey)
  await a.member(ws.accountId, people.member, "member")
  await a.workspace("Elsewhere", people.other)
  return { ...ws, api }
}
