import type { TestNode } from "./Node.js"

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

export const call = async (
  url: string,
  method: string,
  path: string,
  options: { key?: string | undefined; body?: unknown; headers?: Record<string, string>; raw?: string } = {}
): Promise<Answer> => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.key !== undefined) headers["authorization"] = `Bearer ${options.key}`
  let body: string | undefined
  if (options.raw !== undefined) body = options.raw
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers["content-type"] ??= "application/json"
  }
  const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
  const text = await response.text()
  let parsed: unknown = undefined
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: response.status, headers: response.headers, body: parsed, text }
}

/** A client bound to one node and (optionally) one API key. */
export const client = (node: Pick<TestNode, "url">, key?: string) => ({
  get: (path: string, headers?: Record<string, string>) =>
    call(node.url, "GET", path, { key, ...(headers ? { headers } : {}) }),
  post: (path: string, body?: unknown, headers?: Record<string, string>) =>
    call(node.url, "POST", path, { key, body, ...(headers ? { headers } : {}) }),
  put: (path: string, body?: unknown) => call(node.url, "PUT", path, { key, body }),
  patch: (path: string, body?: unknown) => call(node.url, "PATCH", path, { key, body })
})

export const admin = (node: TestNode) => {
  const c = client(node, node.adminToken)
  return {
    ...c,
    /** With `ownerEmail`, hand-over emails have someone to go to, so due posts are handed over and published. */
    workspace: async (name = "Test workspace", ownerEmail?: string) => {
      const r = await c.post("/admin/workspaces", ownerEmail === undefined ? { name } : { name, ownerEmail })
      if (r.status !== 201) throw new Error(`workspace: ${r.status} ${r.text}`)
      return r.body as { accountId: string; accountName: string }
    },
    key: async (accountId: string, scopes: ReadonlyArray<string>) => {
      const r = await c.post(`/admin/workspaces/${accountId}/keys`, { scopes })
      if (r.status !== 201) throw new Error(`key: ${r.status} ${r.text}`)
      return r.body as { keyId: string; apiKey: string; scopes: Array<string> }
    },
    /** Adds a person to the workspace with this role (`owner`, `operations`, `member`). */
    member: async (accountId: string, email: string, role: string) => {
      const r = await c.post(`/admin/workspaces/${accountId}/members`, { email, role })
      if (r.status !== 201) throw new Error(`member: ${r.status} ${r.text}`)
    }
  }
}

/** An owner address for test workspaces whose posts are to be published (into the node's `.eml` outbox). */
export const OWNER_EMAIL = "owner@example.test"

/** A workspace and one key with the given scopes, ready to call. */
export const workspaceWithKey = async (
  node: TestNode,
  scopes: ReadonlyArray<string> = ["*"],
  name?: string,
  ownerEmail?: string
) => {
  const a = admin(node)
  const workspace = await a.workspace(name, ownerEmail)
  const key = await a.key(workspace.accountId, scopes)
  return { ...workspace, ...key, api: client(node, key.apiKey) }
}
