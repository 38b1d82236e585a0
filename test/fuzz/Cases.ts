import { type Doc, type JsonSchema, kindOf, prng, requestSchema, resolve, sample, wrongValues } from "./Schema.js"

/**
 * `refused`: the request is broken in a way no route may take (bad JSON, a wrong type, a missing field, a bad id), so
 * nothing may be stored. `any`: it may well be taken (an extra field, a huge but legal string), so only the answer's
 * hygiene is checked.
 */
export type Phase = "refused" | "any"

export interface Case {
  readonly label: string
  readonly route: string
  readonly method: string
  readonly path: string
  readonly auth: "key" | "admin" | "none"
  readonly headers: Record<string, string>
  readonly body?: string | Uint8Array
  readonly phase: Phase
  /** The statuses the operation documents: 5xx other than these is a fault. */
  readonly declared: ReadonlyArray<number>
}

export interface Ids {
  /** Ids that exist, but in another workspace: they must answer exactly like missing ones. */
  readonly foreign: ReadonlyArray<string>
}

const MISSING_ULID = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
const BAD_IDS = [
  "not-a-ulid",
  "A".repeat(300),
  encodeURIComponent("ünïcødé-💥-ملف"),
  "..%2F..%2Fetc%2Fpasswd",
  "%2E%2E",
  "%00",
  encodeURIComponent("' OR 1=1 --"),
  MISSING_ULID
]
const BAD_QUERY = ["abc", "-1", "1e400", "99999999999999999999", "A".repeat(300), "%00", encodeURIComponent("ünï💥")]
const HUGE_STRING = "h".repeat(100 * 1024)
const HUGE_ARRAY = Array.from({ length: 10_000 }, (_, i) => i)
const OVER_LIMIT = "o".repeat(1_100_000)
const STRANGE_STRINGS = ["\ud800", "nul\u0000byte", "\u202eRTL💥", " "]
const STRANGE_NUMBERS = [1e308, -1, 0.5, -0, Number.MAX_SAFE_INTEGER + 2]
const BAD_JSON = ["{\"a\":", "{'single': 1}", "NaN", "", "[", "{\"a\":1,}", "\u0000"]
const WRONG_TOP = ["null", "42", "\"text\"", "[]", "true"]
const WRONG_TYPES = ["text/plain", "application/xml", "application/x-www-form-urlencoded"]

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth)

interface Operation {
  readonly route: string
  readonly method: string
  readonly template: string
  readonly op: JsonSchema
}

const operations = (doc: Doc & { paths: Record<string, Record<string, JsonSchema>> }): Array<Operation> =>
  Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      route: `${method} ${template}`,
      method: method.toUpperCase(),
      template,
      op
    }))
  )

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? MISSING_ULID)

const paramsIn = (op: JsonSchema, where: string): Array<JsonSchema> =>
  (op["parameters"] ?? []).filter((p: JsonSchema) => p["in"] === where)

/** Every case, drawn from the document with a fixed seed. */
export const casesOf = (doc: any, ids: Ids, seed = 16): Array<Case> => {
  const random = prng(seed)
  const cases: Array<Case> = []
  for (const { route, method, template, op } of operations(doc)) {
    const declared = Object.keys(op["responses"] ?? {}).map(Number)
    const auth = template.startsWith("/admin") ? "admin" : (op["security"]?.length ?? 0) > 0 ? "key" : "none"
    const base = fill(template, {})
    const { types, schema } = requestSchema(op)
    const bodyless = types.length === 0
    const add = (label: string, c: Partial<Case> & { phase: Phase }) =>
      cases.push({ label, route, method, path: base, auth, headers: {}, declared, ...c })
    const json = (value: unknown) => JSON.stringify(value)
    const jsonHeaders = { "content-type": "application/json" }
    // A bodyless POST without a path parameter (sync, buy) is taken whatever else comes with it.
    const unrefusable = bodyless && method !== "GET" && paramsIn(op, "path").length === 0

    for (const param of paramsIn(op, "path")) {
      for (const bad of [...BAD_IDS, ...ids.foreign]) {
        add(`path ${param["name"]}=${bad.slice(0, 40)}`, {
          path: fill(template, { [param["name"]]: bad }),
          phase: "refused",
          ...(bodyless ? {} : { headers: jsonHeaders, body: json(sample(doc, schema ?? {})) })
        })
      }
    }
    for (const param of paramsIn(op, "query")) {
      for (const bad of random.sample(BAD_QUERY, 4)) {
        add(`query ${param["name"]}=${bad.slice(0, 40)}`, { path: `${base}?${param["name"]}=${bad}`, phase: "refused" })
      }
      add(`query ${param["name"]} twice`, { path: `${base}?${param["name"]}=1&${param["name"]}=2`, phase: "refused" })
    }
    if (auth !== "none") {
      add("no credential", { phase: "refused", ...(bodyless ? {} : { headers: jsonHeaders, body: "{}" }) })
      add("garbage bearer", { phase: "refused", headers: { authorization: "Bearer cw_garbage" } })
      add("10 KB bearer", { phase: "refused", headers: { authorization: `Bearer ${"k".repeat(10_240)}` } })
      add("basic scheme", { phase: "refused", headers: { authorization: "Basic dXNlcjpwYXNz" } })
    }
    add("method not allowed", { method: "DELETE", phase: "refused" })

    if (bodyless) {
      if (method === "GET") continue
      add("unasked-for bad JSON body", {
        phase: unrefusable ? "any" : "refused",
        headers: jsonHeaders,
        body: "{\"a\":"
      })
      continue
    }
    if (types.includes("multipart/form-data") && !types.includes("application/json")) {
      cases.push(...multipartCases(route, base, auth, declared))
      continue
    }
    const s = resolve(doc, schema)
    const valid = sample(doc, s) as Record<string, unknown>
    const properties: Record<string, JsonSchema> = s["properties"] ?? {}
    for (const raw of BAD_JSON) add(`bad JSON ${json(raw)}`, { phase: "refused", headers: jsonHeaders, body: raw })
    for (const raw of WRONG_TOP) add(`top-level ${raw}`, { phase: "refused", headers: jsonHeaders, body: raw })
    for (const type of WRONG_TYPES) {
      add(`content-type ${type}`, { phase: "refused", headers: { "content-type": type }, body: json(valid) })
    }
    add("no content-type", { phase: "refused", body: new TextEncoder().encode(json(valid)) })
    add("JSON in UTF-16", {
      phase: "refused",
      headers: { "content-type": "application/json; charset=utf-16" },
      body: json(valid)
    })
    add("over 1 MB", { phase: "refused", headers: jsonHeaders, body: json({ ...valid, padding: OVER_LIMIT }) })
    add("over 5 MB of whitespace", { phase: "refused", headers: jsonHeaders, body: " ".repeat(5_200_000) + "{}" })
    for (const name of s["required"] ?? []) {
      const { [name]: _, ...rest } = valid
      add(`missing ${name}`, { phase: "refused", headers: jsonHeaders, body: json(rest) })
    }
    for (const [name, property] of Object.entries(properties)) {
      const kind = kindOf(doc, property)
      if (kind === undefined) continue
      const nullable = (resolve(doc, property)["anyOf"] ?? []).some((m: JsonSchema) =>
        resolve(doc, m)["type"] === "null"
      )
      for (const wrong of random.sample(wrongValues(kind).filter((v) => !(nullable && v === null)), 3)) {
        add(`${name} as ${json(wrong)}`, {
          phase: "refused",
          headers: jsonHeaders,
          body: json({ ...valid, [name]: wrong })
        })
      }
      if (kind !== "array") {
        add(`${name} nested 10,000 deep`, {
          phase: "refused",
          headers: jsonHeaders,
          body: json({ ...valid, [name]: null }).replace(`"${name}":null`, `"${name}":${nested(10_000)}`)
        })
      }
      if (kind === "string") {
        add(`${name} 100 KB`, { phase: "any", headers: jsonHeaders, body: json({ ...valid, [name]: HUGE_STRING }) })
        for (const odd of STRANGE_STRINGS) {
          add(`${name}=${json(odd)}`, { phase: "any", headers: jsonHeaders, body: json({ ...valid, [name]: odd }) })
        }
      }
      if (kind === "array") {
        add(`${name} of 10,000`, { phase: "any", headers: jsonHeaders, body: json({ ...valid, [name]: HUGE_ARRAY }) })
      }
      if (kind === "number") {
        for (const n of STRANGE_NUMBERS) {
          add(`${name}=${n}`, { phase: "any", headers: jsonHeaders, body: json({ ...valid, [name]: n }) })
        }
      }
    }
    add("extra field", { phase: "any", headers: jsonHeaders, body: json({ ...valid, unexpected: "field" }) })
    const members = json(valid).slice(1)
    const polluted = `{"__proto__":{"isAdmin":true}${members === "}" ? "" : ","}${members}`
    add("__proto__ pollution", { phase: "any", headers: jsonHeaders, body: polluted })
    add("top-level array of 10,000", {
      phase: "refused",
      headers: jsonHeaders,
      body: json(HUGE_ARRAY.map(() => valid))
    })
  }
  return cases
}

const multipartCases = (
  route: string,
  path: string,
  auth: Case["auth"],
  declared: ReadonlyArray<number>
): Array<Case> => {
  const boundary = "----cwfuzz"
  const part = (name: string, content: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ""}\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n${content}\r\n`
  const form = (parts: string) => `${parts}--${boundary}--\r\n`
  const multipart = { "content-type": `multipart/form-data; boundary=${boundary}` }
  const one = (label: string, headers: Record<string, string>, body: string): Case => ({
    label,
    route,
    method: "POST",
    path,
    auth,
    headers,
    body,
    phase: "refused",
    declared
  })
  return [
    one("JSON to a file route", { "content-type": "application/json" }, "{\"file\":\"x\"}"),
    one("text to a file route", { "content-type": "text/plain" }, "hello"),
    one("multipart without boundary", { "content-type": "multipart/form-data" }, form(part("file", "x", "a.png"))),
    one(
      "multipart, other boundary",
      { "content-type": "multipart/form-data; boundary=nope" },
      form(part("file", "x", "a.png"))
    ),
    one("multipart, no file part", multipart, form(part("replace", "true"))),
    one("multipart, unclosed", multipart, part("file", "x", "a.png")),
    one("multipart, file of garbage", multipart, form(part("file", "\u0000\u0001garbage", "a.png"))),
    one("multipart, 1.1 MB of garbage", multipart, form(part("file", OVER_LIMIT, "big.png"))),
    one(
      "multipart, 10,000 parts",
      multipart,
      form(Array.from({ length: 10_000 }, (_, i) => part(`p${i}`, "v")).join(""))
    ),
    one("multipart, 300-char file name", multipart, form(part("file", "x", `${"n".repeat(300)}.png`))),
    one("multipart, ../ file name", multipart, form(part("file", "x", "../../etc/passwd"))),
    one("multipart, empty", multipart, "")
  ]
}

/** Tampered signed URLs: each case keeps everything of a real link but one thing. */
export const signedUrlCases = (
  declaredOf: (route: string) => ReadonlyArray<number>,
  links: ReadonlyArray<{ route: string; url: URL }>
) =>
  links.flatMap(({ route, url }): Array<Case> => {
    const variants: Array<[string, (q: URLSearchParams) => void]> = [
      ["no signature", (q) => q.delete("sig")],
      ["no expiry", (q) => q.delete("exp")],
      ["nothing signed", (q) => {
        q.delete("sig")
        q.delete("exp")
      }],
      ["signature flipped", (q) => q.set("sig", flip(q.get("sig") ?? ""))],
      ["signature truncated", (q) => q.set("sig", (q.get("sig") ?? "").slice(0, 10))],
      ["signature of 300 chars", (q) => q.set("sig", "s".repeat(300))],
      ["signature unicode", (q) => q.set("sig", "ünï💥")],
      ["expiry moved", (q) => q.set("exp", String(Number(q.get("exp") ?? 0) + 1))],
      ["expired", (q) => q.set("exp", "1")],
      ["expiry not a number", (q) => q.set("exp", "soon")],
      ["expiry huge", (q) => q.set("exp", "99999999999999999999999")],
      ["expiry negative", (q) => q.set("exp", "-5")],
      ["key flipped", (q) => q.has("key") && q.set("key", flip(q.get("key")!))],
      ["key missing", (q) => q.delete("key")],
      ["as unknown", (q) => q.set("as", "passwd")]
    ]
    const tampered = variants.map(([label, change]): Case => {
      const query = new URLSearchParams(url.search)
      change(query)
      return {
        label: `signed: ${label}`,
        route,
        method: "GET",
        path: `${url.pathname}?${query}`,
        auth: "none",
        headers: {},
        phase: "refused",
        declared: declaredOf(route)
      }
    })
    const otherId = url.pathname.replace(/[^/]+(\/download|\/preview)?$/, (_m, tail: string | undefined) =>
      `${MISSING_ULID}${tail ?? ""}`)
    return [...tampered, {
      label: "signed: signature of another id",
      route,
      method: "GET",
      path: `${otherId}${url.search}`,
      auth: "none",
      headers: {},
      phase: "refused",
      declared: declaredOf(route)
    }]
  })

const flip = (s: string) => s.length === 0 ? "x" : s.slice(0, -1) + (s.endsWith("A") ? "B" : "A")
