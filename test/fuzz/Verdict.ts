import { isErrorCode, statusOf } from "../../src/domain/Errors.js"
import type { Case } from "./Cases.js"

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

const STACK = [/\bat .*\.(ts|js|mjs|cjs):\d+/, /node_modules/, /\bError:/, /\/work\/|\/src\/[\w/]+\.ts/]
const DOCUMENTED_FAULTS = new Set([502, 503, 504])

/** What is wrong with one answer, or nothing. */
export const problemsOf = (c: Case, reply: Reply, secrets: ReadonlyArray<string>): Array<string> => {
  const problems: Array<string> = []
  if (reply.status >= 500 && !(DOCUMENTED_FAULTS.has(reply.status) && c.declared.includes(reply.status))) {
    problems.push(`status ${reply.status}`)
  }
  for (const pattern of STACK) if (pattern.test(reply.text)) problems.push(`stack trace (${pattern})`)
  for (const secret of secrets) {
    if (reply.text.includes(secret)) problems.push(`secret ${secret.slice(0, 8)}… in the body`)
  }
  if (reply.status >= 400 && reply.status < 500) problems.push(...envelopeProblems(reply))
  return problems
}

const envelopeProblems = (reply: Reply): Array<string> => {
  let body: any
  try {
    body = JSON.parse(reply.text)
  } catch {
    return ["4xx body is not JSON"]
  }
  const error = body?.error
  if (typeof error !== "object" || error === null) return ["4xx body has no `error`"]
  const problems: Array<string> = []
  for (const field of ["type", "code", "message", "requestId"]) {
    if (typeof error[field] !== "string") problems.push(`error.${field} missing`)
  }
  if (!Array.isArray(error.details)) problems.push("error.details is not an array")
  if (typeof error.code === "string" && (!isErrorCode(error.code) || statusOf(error.code)) !== reply.status) {
    problems.push(`code ${error.code} with status ${reply.status}`)
  }
  if (error.requestId !== reply.headers.get("x-request-id")) problems.push("requestId is not the x-request-id header")
  if (
    reply.status === 400 &&
    !(Array.isArray(error.details) && error.details.some((d: any) => typeof d?.path === "string"))
  ) {
    problems.push(`400 ${error.code} without a details path`)
  }
  return problems
}
