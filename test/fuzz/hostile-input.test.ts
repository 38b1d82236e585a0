import { beforeAll, describe, expect, it } from "vitest"
import { call, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { png } from "../support/MediaFiles.js"
import { useNode } from "../support/Rig.js"
import { upload } from "../support/Uploads.js"
import { type Case, casesOf, signedUrlCases } from "./Cases.js"
import { isKnownTaken, knownBugs, knownTaken } from "./KnownBugs.js"
import { problemsOf } from "./Verdict.js"

// Issue 16, part 2: every operation of the served OpenAPI document, fed broken requests drawn from its own schemas.
let doc: any
let apiKey: string
let secrets: Array<string>
let cases: Array<Case>
let foreignId: string

const rowCounts = async () => {
  const tables = await query<{ name: string }>(
    db.url,
    "SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables"
  )
  const counts = await Promise.all(
    tables.map(async ({ name }) =>
      [name, Number((await query<{ n: string }>(db.url, `SELECT count(*) AS n FROM ${name}`))[0]!.n)] as const
    )
  )
  return Object.fromEntries(counts.filter(([name]) => !/cluster_|runner|shard|lock/i.test(name)))
}

interface Outcome {
  readonly c: Case
  readonly status: number
  readonly problems: Array<string>
  readonly requestId?: string | null
}

const send = async (c: Case): Promise<Outcome> => {
  const headers: Record<string, string> = { ...c.headers }
  const credential = c.auth === "key" ? apiKey : c.auth === "admin" ? node.adminToken : undefined
  if (credential !== undefined && headers["authorization"] === undefined && c.label !== "no credential") {
    headers["authorization"] = `Bearer ${credential}`
  }
  try {
    const response = await fetch(`${node.url}${c.path}`, {
      method: c.method,
      headers,
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      ...(c.body === undefined ? {} : { body: c.body })
    })
    const text = await response.text()
    return {
      c,
      status: response.status,
      requestId: response.headers.get("x-request-id"),
      problems: problemsOf(c, { status: response.status, headers: response.headers, text }, secrets)
    }
  } catch (error) {
    return { c, status: 0, problems: [`no answer: ${(error as Error).name}`] }
  }
}

const sendAll = async (batch: ReadonlyArray<Case>, parallel = 8) => {
  const outcomes: Array<Outcome> = []
  let next = 0
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < batch.length) outcomes.push(await send(batch[next++]!))
  }))
  return outcomes
}

const ANSWER_WITHIN_MS = 8_000

const describe1 = (o: Outcome) =>
  `${o.c.method} ${o.c.path.slice(0, 120)} [${o.c.label}] -> ${o.status}: ${o.problems.join("; ")}`

/**
 * Known bug, seen now and then under the fuzz's load, on no particular case: a request interrupted on the server side
 * reaches the envelope as the platform's empty 503 response (a defect), which it does not recognise, so it answers
 * 500 `internal` and logs "Unhandled fault". Recognised by the node's log line for that request.
 */
const interruptedAs500 = (o: Outcome) =>
  JSON.stringify(o.problems) === JSON.stringify(["status 500"]) && typeof o.requestId === "string" &&
  node.output().split("\n").some((line) =>
    line.includes(o.requestId!) && line.includes("Unhandled fault") && line.includes("HttpServerResponse") &&
    line.includes("503")
  )

/** Problems no known bug explains, and for each known bug the answers it gave (which must still be its known ones). */
const sortProblems = (outcomes: ReadonlyArray<Outcome>) => {
  const unexplained: Array<string> = []
  const known = new Map<string, Array<Array<string>>>()
  for (const o of outcomes) {
    const bug = knownBugs.find((b) => b.matches(o.c))
    if (bug === undefined) {
      if (o.problems.length > 0 && !interruptedAs500(o)) unexplained.push(describe1(o))
      continue
    }
    known.set(bug.bug, [...(known.get(bug.bug) ?? []), o.problems])
  }
  return { unexplained, known }
}

const { db, node } = useNode({ label: "fuzz" })

beforeAll(async () => {
  const served = await call(node.url, "GET", "/v1/openapi.json")
  expect(served.status).toBe(200)
  doc = served.body
  const fuzzed = await workspaceWithKey(node, ["*"], "Fuzzed")
  apiKey = fuzzed.apiKey
  const other = await workspaceWithKey(node, ["*"], "Other")
  const uploaded = await upload(`${node.url}/v1/media`, other.apiKey, {
    bytes: png(32, 32),
    name: "logo.png",
    type: "image/png"
  })
  expect(uploaded.status, uploaded.text).toBe(201)
  const item = uploaded.body.file
  // The untampered link works, so every refusal below is the tampering's doing.
  const preview = new URL(item.url)
  expect((await call(node.url, "GET", `${preview.pathname}${preview.search}`)).status).toBe(200)
  // No answer here may carry any webhook secret: the one route that shows one takes only a URL the fuzz never sends.
  secrets = [node.adminToken, fuzzed.apiKey, other.apiKey, db.url, "whsec_"]
  const future = Math.floor(Date.now() / 1000) + 3600
  const declaredOf = (route: string) =>
    Object.keys(doc.paths[route.split(" ")[1]!]?.[route.split(" ")[0]!]?.responses ?? {}).map(Number)
  const links = [
    { route: "get /v1/media/{id}/preview", url: preview },
    {
      route: "get /v1/assets/{id}/download",
      url: new URL(`${node.url}/v1/assets/01ARZ3NDEKTSV4RRFFQ69G5FAV/download?exp=${future}&sig=AAAA`)
    },
    {
      route: "get /v1/receipts/{postId}",
      url: new URL(`${node.url}/v1/receipts/01ARZ3NDEKTSV4RRFFQ69G5FAV?exp=${future}&sig=AAAA`)
    },
    {
      route: "get /v1/export-files/{jobId}",
      url: new URL(`${node.url}/v1/export-files/01ARZ3NDEKTSV4RRFFQ69G5FAV?as=video&key=AAAA`)
    }
  ]
  foreignId = item.id
  cases = [...casesOf(doc, { foreign: [item.id] }), ...signedUrlCases(declaredOf, links)]
}, 120_000)

describe("hostile input over every operation of /v1/openapi.json", () => {
  it("answers every case with the envelope, no fault, no trace, no secret, and stores nothing it refused", async () => {
    expect(cases.length).toBeGreaterThanOrEqual(2000)
    const before = await rowCounts()
    expect(Object.keys(before).length).toBeGreaterThan(10)
    const refused = await sendAll(cases.filter((c) => c.phase === "refused" && !isKnownTaken(c)))
    const after = await rowCounts()
    const taken = refused.filter((o) => o.status >= 200 && o.status < 300 && o.c.method !== "GET")
    const stillTaken = await sendAll(cases.filter(isKnownTaken))
    const rest = await sendAll(cases.filter((c) => c.phase === "any"))
    const { unexplained, known } = sortProblems([...refused, ...stillTaken, ...rest])
    // Each known-taken case is still taken; the day one is refused, its line in `knownTaken` goes.
    expect(stillTaken.length).toBe(knownTaken.length)
    expect(stillTaken.filter((o) => o.status < 200 || (o.status >= 300 && o.status !== 409)).map(describe1)).toEqual([])
    // On a fault, the node's own account of it (its log never reaches the answer) says where to look.
    const faults = node.output().split("\n").filter((line) => line.includes("Unhandled fault")).map((l) =>
      l.slice(0, 1500)
    )
    expect(unexplained, faults.join("\n")).toEqual([])
    for (const bug of knownBugs) {
      const answers = known.get(bug.bug) ?? []
      const pinned = JSON.stringify(bug.problems)
      expect(answers.some((p) => JSON.stringify(p) === pinned), bug.bug).toBe(true)
      const others = answers.filter((p) => JSON.stringify(p) !== pinned && !(bug.alsoFine === true && p.length === 0))
      expect(others, bug.bug).toEqual([])
    }
    // Another workspace's id is never served, read or written through this workspace's key.
    expect(refused.filter((o) => o.c.label.endsWith(`=${foreignId}`) && o.status < 300).map(describe1)).toEqual([])
    expect(taken.map((o) => `${o.c.route} [${o.c.label}] -> ${o.status}`)).toEqual([])
    expect(after).toEqual(before)
    expect((await call(node.url, "GET", "/health")).status).toBe(200)
  }, 180_000)
})
