// Turns the OpenAPI document into docs/api.md: every route under its section, with its summary, description,
// credential, parameters, an example call and answer, and its error codes. The examples are made from the schemas
// (scripts/ApiExamples.ts), so they change when the API does; `npm run docs:api` writes the file and
// test/docs/api-reference.test.ts fails when the committed file is not what the document gives.
import { parameterExample, requestExample, responseExample, type Schema } from "./ApiExamples.js"

interface Parameter {
  readonly name: string
  readonly in: string
  readonly required?: boolean
  readonly description?: string
  readonly schema?: Schema
}

interface Operation {
  readonly operationId?: string
  readonly summary?: string
  readonly description?: string
  readonly tags?: ReadonlyArray<string>
  readonly deprecated?: boolean
  readonly security?: ReadonlyArray<Record<string, unknown>>
  /** Set where only the signed-in owner's session is let through (every API key answers 403). */
  readonly "x-owner-session-only"?: boolean
  readonly parameters?: ReadonlyArray<Parameter>
  readonly requestBody?: { readonly content?: Record<string, { readonly schema?: Schema }> }
  readonly responses?: Record<
    string,
    { readonly description?: string; readonly content?: Record<string, { schema?: Schema }> }
  >
}

export interface OpenApiDocument {
  readonly info: { readonly title: string; readonly description?: string }
  readonly tags?: ReadonlyArray<{ readonly name: string; readonly description?: string }>
  readonly paths: Record<string, Record<string, Operation>>
  readonly components?: { readonly schemas?: Record<string, Schema> }
}

const methods = ["get", "post", "put", "patch", "delete"]

const anchor = (text: string) => text.toLowerCase().replace(/[^\w\- ]/g, "").trim().replace(/ /g, "-")

const shellVariable = (name: string) => `$${name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase()}`

/** The session cookie the console sets at sign-in (CONTRACT "Session"). */
const SESSION_COOKIE = "clipwright_session"

/** What a route takes as credential, and the header its example call sends. */
const credential = (path: string, op: Operation): { readonly text: string; readonly header: string | undefined } => {
  if (path.startsWith("/admin/")) {
    return {
      text: "the admin token (`Authorization: Bearer $ADMIN_TOKEN`)",
      header: `authorization: Bearer $ADMIN_TOKEN`
    }
  }
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s))
  if (schemes.length === 0) return { text: "none", header: undefined }
  if (op["x-owner-session-only"] === true) {
    return {
      text: `the signed-in owner's console session (the \`${SESSION_COOKIE}\` cookie \`/console/sign-in\` sets, ` +
        "`$SESSION` below); every API key is answered 403 `forbidden`",
      header: `cookie: ${SESSION_COOKIE}=$SESSION`
    }
  }
  return {
    text: schemes.includes("session")
      ? "an API key (`Authorization: Bearer $KEY`) or a person's console session"
      : "an API key (`Authorization: Bearer $KEY`)",
    header: "authorization: Bearer $KEY"
  }
}

/** The group an operation belongs to (`streams` of `streams.create`): the first word of its example values. */
const group = (op: Operation) => op.operationId?.split(".")[0] ?? ""

const bodyType = (op: Operation) => Object.keys(op.requestBody?.content ?? {})[0]

// A route answering several successes shows its main one: what it made (201) or took (202) before a repeat's 200.
const preferred = ["201", "202", "200"]
const success = (op: Operation) => {
  const answers = Object.entries(op.responses ?? {}).filter(([status]) => /^[23]/.test(status))
  return preferred.map((status) => answers.find(([s]) => s === status)).find((a) => a !== undefined) ?? answers[0]
}

const files: Record<string, string> = { "video/mp4": "clip.mp4", "application/zip": "export.zip" }

/** A download is saved to a file, as a reader would, rather than printed. */
const savedAs = (op: Operation): string | undefined => {
  const type = Object.keys(success(op)?.[1].content ?? {})[0]
  if (type === undefined || type === "application/json" || type.startsWith("text/")) return undefined
  return files[type] ?? "download.bin"
}

const exampleCall = (method: string, path: string, op: Operation, document: OpenApiDocument) => {
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => shellVariable(name))
  const query = (op.parameters ?? []).filter((p) => p.in === "query")
  // A signed URL is nothing without its signature: all of its parameters are shown.
  const signed = query.some((p) => p.name === "sig")
  const required = query.filter((p) => p.required === true || signed)
  const search = required.length === 0
    ? ""
    : `?${required.map((p) => `${p.name}=${parameterExample(p.schema, document, p.name)}`).join("&")}`
  const parts = [`curl -s${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "localhost:8080${url}${search}"`]
  const { header } = credential(path, op)
  if (header !== undefined) parts.push(`-H "${header}"`)
  const type = bodyType(op)
  if (type === "application/json") {
    const schema = op.requestBody?.content?.[type]?.schema
    parts.push(`-H "content-type: application/json"`)
    parts.push(`-d '${JSON.stringify(requestExample(schema, document, group(op))).replace(/'/g, "'\\''")}'`)
  } else if (type === "multipart/form-data") {
    parts.push("-F file=@logo.png")
  }
  const saved = savedAs(op)
  if (saved !== undefined) parts.push(`-o ${saved}`)
  const lines: Array<string> = []
  let line = ""
  for (const part of parts) {
    if (line !== "" && line.length + part.length > 110) {
      lines.push(`${line} \\`)
      line = `  ${part}`
    } else line = line === "" ? part : `${line} ${part}`
  }
  lines.push(line)
  return lines.join("\n")
}

const errors = (op: Operation) =>
  Object.entries(op.responses ?? {})
    .filter(([status]) => /^[45]/.test(status))
    .map(([status, r]) => {
      const codes = r.description?.startsWith("Error: ") ? r.description.slice(7).split(/\s*[,|]\s*/) : []
      return [`\`${status}\``, codes.map((code) => `\`${code}\``).join(", ")].join(" ").trim()
    })

const answer = (op: Operation, document: OpenApiDocument): Array<string> => {
  const found = success(op)
  if (found === undefined) return []
  const [status, response] = found
  const [type, content] = Object.entries(response.content ?? {})[0] ?? []
  if (type === undefined) return [`Answers \`${status}\` with no body.`, ""]
  if (type !== "application/json") return [`Answers \`${status}\` with \`${type}\`.`, ""]
  return [`Answers \`${status}\`:`, "", "```json", responseExample(content?.schema, document, group(op)), "```", ""]
}

const parameterLines = (op: Operation) => {
  const list = (op.parameters ?? []).filter((p) => p.in === "query")
  if (list.length === 0) return []
  const one = (p: Parameter) =>
    `\`${p.name}\`${p.required === true ? " (required)" : ""}${p.description ? `: ${p.description}` : ""}`
  return [`Query: ${list.map(one).join("; ")}.`, ""]
}

const operationSection = (method: string, path: string, op: Operation, document: OpenApiDocument) => [
  `### ${op.summary ?? `${method.toUpperCase()} ${path}`}`,
  "",
  `\`${method.toUpperCase()} ${path}\`${op.deprecated === true ? " (deprecated)" : ""}. Credential: ${
    credential(path, op).text
  }.`,
  "",
  ...(op.description ? [op.description.trim(), ""] : []),
  ...parameterLines(op),
  "```sh",
  exampleCall(method, path, op, document),
  "```",
  "",
  ...answer(op, document),
  ...(errors(op).length > 0 ? [`Errors: ${errors(op).join(", ")}.`, ""] : [])
]

/** The whole page, from the document the node serves at /v1/openapi.json. */
export const apiReference = (document: OpenApiDocument): string => {
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    methods.filter((m) => item[m] !== undefined).map((m) => ({ method: m, path, op: item[m]! }))
  )
  const tags = (document.tags ?? []).filter((t) => operations.some((o) => o.op.tags?.[0] === t.name))
  const contents = tags.map((t) => {
    const summaries = operations.filter((o) => o.op.tags?.[0] === t.name).map((o) => o.op.summary ?? o.path)
    return `- [${t.name}](#${anchor(t.name)}): ${
      summaries.map((s) => `[${s.toLowerCase()}](#${anchor(s)})`).join(", ")
    }`
  })
  const sections = tags.flatMap((t) => [
    `## ${t.name}`,
    "",
    ...(t.description ? [t.description.trim(), ""] : []),
    ...operations.filter((o) => o.op.tags?.[0] === t.name).flatMap((o) =>
      operationSection(o.method, o.path, o.op, document)
    )
  ])
  return [
    "# API reference",
    "",
    "<!-- Written by `npm run docs:api` (scripts/api-reference.ts) from the OpenAPI document; do not edit by hand. -->",
    "",
    `${document.info.description ?? ""}`,
    "",
    "Every node serves this reference interactively at `/docs` (for example http://localhost:8080/docs) and the",
    "OpenAPI document itself at `/v1/openapi.json`; this page is written from the same document. `npm run lint:openapi`",
    "lints the document with `@redocly/cli lint` (recommended rules, warnings as errors, `redocly.yaml`); `npm test`",
    "runs it. The examples are made from the schemas (a schema's own example where it has one, else a value for the",
    "field's name: the shipped Market move template, its feed and a stream, ULIDs as the service draws them), and",
    "test/docs/api-examples.test.ts decodes each with its route's schemas. `$KEY` is an API key, `$ADMIN_TOKEN` the",
    "admin token, `$SESSION` the value of a signed-in person's `clipwright_session` cookie (the owner-only routes take",
    "nothing else), and an upper-case variable stands for the path parameter of that name. What the error codes mean,",
    "and when to retry, is in [docs/integrating.md](integrating.md#errors-and-retries).",
    "",
    ...contents,
    "",
    ...sections
  ].join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n"
}
