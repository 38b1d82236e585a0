import { beforeAll, describe, expect, it } from "vitest"
import { admin, call } from "../support/Client.js"
import { query } from "../support/Database.js"
import { formPost, SESSION_COOKIE, setCookie, signInLink, withSession } from "../support/People.js"
import { useNode } from "../support/Rig.js"

let workspaceId: string
const OWNER = "owner@signin.test"

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${node.url}${path}`, { redirect: "manual", headers })

const { db, node, sink } = useNode({ label: "console_signin", smtp: true })

beforeAll(async () => {
  workspaceId = (await admin(node).workspace("Signin <House>", OWNER)).accountId
}, 120_000)

describe("the sign-in pages", () => {
  it("sends a person without a session to sign in, and the form has the contract's labels and a strict CSP", async () => {
    const home = await get("/console?state=waiting")
    expect(home.status).toBe(303)
    expect(home.headers.get("location")).toBe("/console/sign-in?next=%2Fconsole%3Fstate%3Dwaiting")
    const form = await get("/console/sign-in?next=%2Fconsole")
    const html = await form.text()
    expect(form.status).toBe(200)
    expect(form.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const csp = form.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain("unsafe-inline")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(html).toMatch(/<label for="email">Email<\/label>/)
    expect(html).toContain(">Send sign-in link</button>")
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/)
    const css = await get("/console/assets/console.css")
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8")
    const htmx = await get("/console/assets/htmx.min.js")
    expect(htmx.status).toBe(200)
    expect(await htmx.text()).toContain("htmx")
  })

  it("answers the same page whether or not the address is known, and mails only a known one", async () => {
    const before = sink.messages.length
    const known = await formPost(node, "/console/sign-in", { email: OWNER })
    const unknown = await formPost(node, "/console/sign-in", { email: "nobody@signin.test" })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    const strip = (html: string) => html.replace(OWNER, "X").replace("nobody@signin.test", "X")
    expect(strip(await known.text())).toBe(strip(await unknown.text()))
    const link = await signInLink(sink, OWNER, before)
    await new Promise((r) => setTimeout(r, 500))
    expect(sink.messages.length).toBe(before + 1)
    expect(link.url).toMatch(/^http:\/\/localhost:\d+\/console\/sign-in\//)
    // 32 random bytes in base64url: 256 bits, over the 128 the contract asks.
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const stored = await query(db.url, "SELECT token_hash FROM sign_in_links")
    expect(stored.map((r) => r["token_hash"])).not.toContain(link.token)
  })

  it("shows Continue on GET (signing nobody in), signs in on POST, and the link then is spent", async () => {
    const before = sink.messages.length
    await formPost(node, "/console/sign-in", { email: OWNER.toUpperCase(), next: "/console?from=mail" })
    const { token } = await signInLink(sink, OWNER.toUpperCase().toLowerCase(), before)
    for (let i = 0; i < 2; i++) {
      const page = await get(`/console/sign-in/${token}`)
      expect(page.status).toBe(200)
      expect(page.headers.getSetCookie()).toEqual([])
      expect(await page.text()).toContain(">Continue</button>")
    }
    const continued = await formPost(node, `/console/sign-in/${token}`, {})
    expect(continued.status).toBe(303)
    expect(continued.headers.get("location")).toBe("/console?from=mail")
    const cookie = setCookie(continued.headers, SESSION_COOKIE)!
    expect(cookie.attributes).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/"]))
    expect(cookie.attributes).not.toContain("Secure")
    const home = await get("/console", withSession(cookie.value))
    expect(home.status).toBe(200)
    expect(await home.text()).toContain("<h1>Signin &lt;House></h1>")
    const whoami = await call(node.url, "GET", "/v1/whoami", { headers: withSession(cookie.value) })
    expect(whoami.status, whoami.text).toBe(200)
    expect(whoami.body).toMatchObject({ accountId: workspaceId, kind: "user" })
    // Spent: both the page and a second Continue say so.
    const again = await formPost(node, `/console/sign-in/${token}`, {})
    expect(again.status).toBe(410)
    expect(await again.text()).toContain("This sign-in link has expired or was already used")
    expect((await get(`/console/sign-in/${token}`)).status).toBe(410)
  })

  it("shows the dead-link page for an expired link", async () => {
    const before = sink.messages.length
    await formPost(node, "/console/sign-in", { email: OWNER })
    const { token } = await signInLink(sink, OWNER, before)
    await query(db.url, "UPDATE sign_in_links SET expires_at = now() - interval '1 second' WHERE used_at IS NULL")
    const page = await get(`/console/sign-in/${token}`)
    expect(page.status).toBe(410)
    expect(await page.text()).toContain("Ask for a new sign-in link")
    expect((await formPost(node, `/console/sign-in/${token}`, {})).status).toBe(410)
  })
})
