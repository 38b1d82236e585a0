import { beforeAll, describe, expect, it } from "vitest"
import { admin, call } from "../support/Client.js"
import { query } from "../support/Database.js"
import { png } from "../support/MediaFiles.js"
import { fillPath, FIXED_PARAMS, isIdLike, operationsOf } from "../support/OpenApiOperations.js"
import { formPost, SESSION_COOKIE, setCookie, signInLink, signInOverHttp, withSession } from "../support/People.js"
import { useNode } from "../support/Rig.js"

let home: { accountId: string }
let other: { accountId: string }
const OWNER = "owner@sessions.test"
const OPS = "ops@sessions.test"
const MEMBER = "member@sessions.test"
const sessions: Record<string, string> = {}
/** Every credential the node saw, to look for in its output at the end. */
const secrets: Array<string> = []

const v1 = (method: string, path: string, sessionId: string, body?: unknown, extra: Record<string, string> = {}) =>
  call(node.url, method, path, { headers: withSession(sessionId, extra), ...(body === undefined ? {} : { body }) })

/**
 * Every row the workspace holds, table by table, as text: what a forged request must leave as it was. Sessions are
 * left out, since every request a session makes moves its last-seen time.
 */
const workspaceRows = async (workspaceId: string) => {
  const tables = await query(
    db.url,
    `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'workspace_id'
     AND table_name <> 'sessions' ORDER BY table_name`
  )
  const rows: Record<string, unknown> = {}
  for (const { table_name } of tables) {
    const [found] = await query(
      db.url,
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS sum
       FROM "${table_name}" t WHERE workspace_id = $1`,
      [workspaceId]
    )
    rows[String(table_name)] = found
  }
  return rows
}

const signIn = async (email: string) => {
  const id = await signInOverHttp(node, sink, email)
  secrets.push(id)
  return id
}

const { db, node, sink } = useNode({ label: "console_sessions", smtp: true })

beforeAll(async () => {
  const a = admin(node)
  home = await a.workspace("Home", OWNER)
  other = await a.workspace("Other", "someone@sessions.test")
  await a.member(home.accountId, OPS, "operations")
  await a.member(home.accountId, MEMBER, "member")
  await a.member(other.accountId, OWNER, "member")
  sessions[OWNER] = await signIn(OWNER)
  sessions[OPS] = await signIn(OPS)
  sessions[MEMBER] = await signIn(MEMBER)
}, 120_000)

describe("a session on /v1", () => {
  it("lets the role decide: owner and Operations write, a member reads", async () => {
    expect((await v1("POST", "/v1/brands", sessions[OWNER]!, { name: "By owner" })).status).toBe(201)
    expect((await v1("POST", "/v1/brands", sessions[OPS]!, { name: "By ops" })).status).toBe(201)
    const refused = await v1("POST", "/v1/brands", sessions[MEMBER]!, { name: "By member" })
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe("forbidden")
    const read = await v1("GET", "/v1/brands", sessions[MEMBER]!)
    expect(read.status).toBe(200)
    expect(read.body.brands.map((b: any) => b.name).sort()).toEqual(["By ops", "By owner"])
    const who = await v1("GET", "/v1/whoami", sessions[MEMBER]!)
    expect(who.body).toMatchObject({ accountId: home.accountId, kind: "user" })
  })

  it("records what a person uploads as uploadedBy user:<email>, and a member may not upload", async () => {
    const send = (sessionId: string) => {
      const form = new FormData()
      form.append("file", new Blob([png(16, 16)], { type: "image/png" }), "by-person.png")
      return fetch(`${node.url}/v1/media`, { method: "POST", headers: withSession(sessionId), body: form })
    }
    const uploaded = await send(sessions[OPS]!)
    const body = await uploaded.json() as any
    expect(uploaded.status, JSON.stringify(body)).toBe(201)
    expect(body.file.uploadedBy).toBe(`user:${OPS}`)
    expect((await send(sessions[MEMBER]!)).status).toBe(403)
  })

  it("refuses a session's unsafe request from another site, by Sec-Fetch-Site or else by Origin", async () => {
    const crossSite = await v1("POST", "/v1/brands", sessions[OWNER]!, { name: "Forged" }, {
      "sec-fetch-site": "cross-site"
    })
    expect(crossSite.status).toBe(403)
    expect(crossSite.body.error.code).toBe("forbidden")
    const sameSite = await v1("POST", "/v1/brands", sessions[OWNER]!, { name: "Forged" }, {
      "sec-fetch-site": "same-site"
    })
    expect(sameSite.status).toBe(403)
    const byOrigin = await call(node.url, "POST", "/v1/brands", {
      headers: { cookie: `${SESSION_COOKIE}=${sessions[OWNER]}`, origin: "http://evil.test" },
      body: { name: "Forged" }
    })
    expect(byOrigin.status).toBe(403)
    const ownOrigin = await call(node.url, "POST", "/v1/brands", {
      headers: { cookie: `${SESSION_COOKIE}=${sessions[OWNER]}`, origin: `http://localhost:${new URL(node.url).port}` },
      body: { name: "Own origin" }
    })
    expect(ownOrigin.status, ownOrigin.text).toBe(201)
    // A read from anywhere is no forgery.
    expect((await v1("GET", "/v1/brands", sessions[OWNER]!, undefined, { "sec-fetch-site": "cross-site" })).status)
      .toBe(200)
  })

  it("refuses every unsafe /v1 route a session may reach, sent from another site, and changes nothing", async () => {
    const served = await call(node.url, "GET", "/v1/openapi.json")
    const unsafe = operationsOf(served.body).filter((op) =>
      op.path.startsWith("/v1/") && op.keySecured && ["POST", "PUT", "PATCH", "DELETE"].includes(op.method)
    )
    expect(unsafe.length).toBeGreaterThan(40)
    // A real record of the workspace where a route names one by id, so that a forged request would find it.
    const brand = (await v1("GET", "/v1/brands", sessions[OWNER]!)).body.brands[0].id as string
    const before = await workspaceRows(home.accountId)
    expect(before["brands"]).toMatchObject({ n: expect.any(Number) })
    expect(before["brands"]).not.toMatchObject({ n: 0 })
    for (const op of unsafe) {
      const path = fillPath(op.path, {
        ...FIXED_PARAMS,
        ...Object.fromEntries(op.pathParams.filter(isIdLike).filter((p) => p !== "templateId").map((p) => [p, brand]))
      })
      const forged = await v1(op.method, path, sessions[OWNER]!, {}, { "sec-fetch-site": "cross-site" })
      expect(forged.status, op.name).toBe(403)
      expect(forged.body?.error?.code, op.name).toBe("forbidden")
    }
    expect(await workspaceRows(home.accountId)).toEqual(before)
  })

  it("refuses every unsafe console route sent from another site", async () => {
    for (const path of ["/console/sign-in", "/console/sign-in/some-token", "/console/sign-out", "/console/workspace"]) {
      const bySite = await formPost(node, path, { email: OWNER, workspaceId: other.accountId }, {
        cookie: `${SESSION_COOKIE}=${sessions[OWNER]}`,
        "sec-fetch-site": "cross-site"
      })
      expect(bySite.status, path).toBe(403)
      const byOrigin = await fetch(`${node.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: `${SESSION_COOKIE}=${sessions[OWNER]}`,
          origin: "http://evil.test"
        },
        body: "email=x%40y.z"
      })
      expect(byOrigin.status, path).toBe(403)
    }
    expect((await v1("GET", "/v1/whoami", sessions[OWNER]!)).status).toBe(200)
  })
})

describe("buy, keep and drop", () => {
  it("refuse every API key and every colleague who is not the owner", async () => {
    const key = await admin(node).key(home.accountId, ["*"])
    for (const path of ["/v1/renders/buy", "/v1/renders/keep", "/v1/renders/drop"]) {
      const byKey = await call(node.url, "POST", path, { key: key.apiKey, body: { renders: 1 } })
      expect(byKey.status, path).toBe(403)
      for (const email of [OPS, MEMBER]) {
        expect((await v1("POST", path, sessions[email]!, { renders: 1 })).status).toBe(403)
      }
    }
  })

  it("buy extra renders up to the operator's ceiling, keep unused ones for next month, drop the rest", async () => {
    const owner = sessions[OWNER]!
    const none = await v1("POST", "/v1/renders/buy", owner, { renders: 5 })
    expect(none.status).toBe(409)
    expect(none.body.error.details[0].path).toBe("/renders")
    const limits = await admin(node).put(`/admin/workspaces/${home.accountId}/limits`, { extraCeiling: 100 })
    expect(limits.status, limits.text).toBe(200)
    const bought = await v1("POST", "/v1/renders/buy", owner, { renders: 60 })
    expect(bought.status, bought.text).toBe(200)
    expect(bought.body.quota).toMatchObject({ allowance: 500, extra: 60, remaining: 560 })
    const over = await v1("POST", "/v1/renders/buy", owner, { renders: 41 })
    expect(over.status).toBe(409)
    expect(over.body.error.message).toContain("40 more")
    expect((await v1("POST", "/v1/renders/buy", owner, { renders: 0 })).status).toBe(400)
    const kept = await v1("POST", "/v1/renders/keep", owner, { renders: 25 })
    expect(kept.status, kept.text).toBe(200)
    expect(kept.body.quota.extra).toBe(35)
    expect(kept.body.nextPeriod.extra).toBe(25)
    expect(kept.body.nextPeriod.periodStart).toBe(kept.body.quota.periodEnd)
    expect((await v1("POST", "/v1/renders/keep", owner, { renders: 36 })).status).toBe(409)
    const dropped = await v1("POST", "/v1/renders/drop", owner, {})
    expect(dropped.status, dropped.text).toBe(200)
    expect(dropped.body.quota).toMatchObject({ extra: 0, remaining: 500 })
    expect((await v1("POST", "/v1/renders/drop", owner, {})).status).toBe(409)
    const quota = await v1("GET", "/v1/renders/quota", sessions[MEMBER]!)
    expect(quota.body.quota.extra).toBe(0)
  })
})

describe("sessions", () => {
  it("switch a person between their workspaces, and never into one they are not in", async () => {
    const owner = sessions[OWNER]!
    const page = await (await fetch(`${node.url}/console`, { headers: withSession(owner) })).text()
    expect(page).toContain(`value="${other.accountId}"`)
    const switched = await formPost(node, "/console/workspace", { workspaceId: other.accountId }, {
      cookie: `${SESSION_COOKIE}=${owner}`
    })
    expect(switched.status).toBe(303)
    expect((await v1("GET", "/v1/whoami", owner)).body.accountId).toBe(other.accountId)
    // In "Other" the owner of "Home" is a member: reads only.
    expect((await v1("POST", "/v1/brands", owner, { name: "Nope" })).status).toBe(403)
    const foreign = await admin(node).workspace("Foreign")
    const refused = await formPost(node, "/console/workspace", { workspaceId: foreign.accountId }, {
      cookie: `${SESSION_COOKIE}=${owner}`
    })
    expect(refused.status).toBe(403)
    await formPost(node, "/console/workspace", { workspaceId: home.accountId }, {
      cookie: `${SESSION_COOKIE}=${owner}`
    })
    expect((await v1("GET", "/v1/whoami", owner)).body.accountId).toBe(home.accountId)
  })

  it("get a new id at every sign-in: a planted or earlier id is never the signed-in one", async () => {
    const planted = "attacker-chosen-session-id"
    const before = sink.messages.length
    await formPost(node, "/console/sign-in", { email: OPS })
    const { token } = await signInLink(sink, OPS, before)
    secrets.push(token)
    const continued = await formPost(node, `/console/sign-in/${token}`, {}, {
      cookie: `${SESSION_COOKIE}=${sessions[OPS]}`
    })
    const fresh = setCookie(continued.headers, SESSION_COOKIE)!.value
    secrets.push(fresh)
    expect(fresh).not.toBe(sessions[OPS])
    expect(fresh).not.toBe(planted)
    // The session the browser held before ends with the new sign-in.
    expect((await v1("GET", "/v1/whoami", sessions[OPS]!)).status).toBe(401)
    expect((await v1("GET", "/v1/whoami", fresh)).status).toBe(200)
    expect((await v1("GET", "/v1/whoami", planted)).status).toBe(401)
    sessions[OPS] = fresh
    const stored = await query(db.url, "SELECT id_hash FROM sessions")
    expect(stored.map((r) => r["id_hash"])).not.toContain(fresh)
  })

  it("end on sign-out, after 7 idle days and after 30 days", async () => {
    const member = sessions[MEMBER]!
    const out = await formPost(node, "/console/sign-out", {}, { cookie: `${SESSION_COOKIE}=${member}` })
    expect(out.status).toBe(200)
    expect(setCookie(out.headers, SESSION_COOKIE)?.attributes).toContain("Max-Age=0")
    expect((await v1("GET", "/v1/whoami", member)).status).toBe(401)
    const idle = await signIn(MEMBER)
    await query(
      db.url,
      "UPDATE sessions SET last_seen_at = now() - interval '7 days 1 minute' WHERE ended_at IS NULL AND email = $1",
      [MEMBER]
    )
    expect((await v1("GET", "/v1/whoami", idle)).status).toBe(401)
    const old = await signIn(MEMBER)
    await query(
      db.url,
      "UPDATE sessions SET created_at = now() - interval '30 days 1 minute' WHERE ended_at IS NULL AND email = $1",
      [MEMBER]
    )
    expect((await v1("GET", "/v1/whoami", old)).status).toBe(401)
  })

  it("limit asking for links per address, then per client, with 429 and Retry-After", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 6; i++) {
      statuses.push((await formPost(node, "/console/sign-in", { email: "flood@sessions.test" })).status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    let last: Response | undefined
    for (let i = 0; i < 20; i++) {
      last = await formPost(node, "/console/sign-in", { email: `many${i}@sessions.test` })
      if (last.status === 429) break
    }
    expect(last?.status).toBe(429)
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await last?.text()).toContain("Too many sign-in links")
  })

  it("never write a sign-in token or a session id in the node's log", () => {
    const output = node.output()
    expect(output.length).toBeGreaterThan(0)
    for (const secret of secrets) expect(output).not.toContain(secret)
  })
})
