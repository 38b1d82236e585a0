/** The operator commands: one per admin route of CONTRACT.md, plus `health`. */

export class UsageError extends Error {
  override readonly name = "UsageError"
  constructor(message: string, readonly command?: Command) {
    super(message)
  }
}

export type OptionKind = "string" | "count" | "scopes" | "role"

export interface OptionSpec {
  readonly kind: OptionKind
  readonly value: string
  readonly description: string
  readonly required?: boolean
}

export interface HttpRequest {
  readonly method: "GET" | "POST" | "PUT"
  readonly path: string
  readonly body?: unknown
  /** Whether the admin token is sent. */
  readonly admin: boolean
}

export type OptionValue = string | number | ReadonlyArray<string>

export interface Command {
  /** The words after `admin`, e.g. `["key", "create"]`. */
  readonly words: ReadonlyArray<string>
  readonly summary: string
  readonly args: ReadonlyArray<string>
  readonly options: Readonly<Record<string, OptionSpec>>
  readonly request: (args: ReadonlyArray<string>, options: Readonly<Record<string, OptionValue>>) => HttpRequest
}

export const ROLES = ["owner", "operations", "member"] as const

const segment = (value: string | undefined) => encodeURIComponent(value ?? "")

const workspacePath = (args: ReadonlyArray<string>, rest = "") => `/admin/workspaces/${segment(args[0])}${rest}`

/** Copies the given options into a body under their JSON names, leaving out the ones not given. */
const bodyOf = (options: Readonly<Record<string, OptionValue>>, names: Readonly<Record<string, string>>) => {
  const body: Record<string, OptionValue> = {}
  for (const [option, field] of Object.entries(names)) {
    const value = options[option]
    if (value !== undefined) body[field] = value
  }
  return body
}

export const commands: ReadonlyArray<Command> = [
  {
    words: ["health"],
    summary: "GET /health: whether the node serves (no token needed)",
    args: [],
    options: {},
    request: () => ({ method: "GET", path: "/health", admin: false })
  },
  {
    words: ["workspace", "create"],
    summary: "create a workspace (500 renders a month and 1024 MB unless limits say otherwise)",
    args: [],
    options: {
      name: { kind: "string", value: "NAME", description: "workspace name, 1 to 120 characters", required: true },
      "owner-email": { kind: "string", value: "EMAIL", description: "email address of the first owner" }
    },
    request: (_args, options) => ({
      method: "POST",
      path: "/admin/workspaces",
      body: bodyOf(options, { name: "name", "owner-email": "ownerEmail" }),
      admin: true
    })
  },
  {
    words: ["key", "create"],
    summary: "issue an API key for a workspace (the key is shown once)",
    args: ["accountId"],
    options: {
      scopes: {
        kind: "scopes",
        value: "a,b|*",
        description: "comma-separated permissions, e.g. streams:read,streams:write; * for every permission",
        required: true
      },
      name: { kind: "string", value: "NAME", description: "a label for the key" }
    },
    request: (args, options) => ({
      method: "POST",
      path: workspacePath(args, "/keys"),
      body: bodyOf(options, { scopes: "scopes", name: "name" }),
      admin: true
    })
  },
  {
    words: ["key", "revoke"],
    summary: "revoke an API key; it is refused (401) from then on",
    args: ["accountId", "keyId"],
    options: {},
    request: (args) => ({
      method: "POST",
      path: workspacePath(args, `/keys/${segment(args[1])}/revoke`),
      admin: true
    })
  },
  {
    words: ["webhook", "set"],
    summary: "set the workspace's webhook address; answers the signing secret",
    args: ["accountId"],
    options: {
      url: {
        kind: "string",
        value: "URL",
        description: "the webhook address (give the node as --node-url here)",
        required: true
      }
    },
    request: (args, options) => ({
      method: "PUT",
      path: workspacePath(args, "/webhook"),
      body: bodyOf(options, { url: "url" }),
      admin: true
    })
  },
  {
    words: ["member", "add"],
    summary: "add a member to a workspace",
    args: ["accountId"],
    options: {
      email: { kind: "string", value: "EMAIL", description: "the member's email address", required: true },
      role: { kind: "role", value: ROLES.join("|"), description: "the member's role", required: true }
    },
    request: (args, options) => ({
      method: "POST",
      path: workspacePath(args, "/members"),
      body: bodyOf(options, { email: "email", role: "role" }),
      admin: true
    })
  },
  {
    words: ["limits", "set"],
    summary: "set a workspace's limits; prints the resulting quota (no option: just print it)",
    args: ["accountId"],
    options: {
      "render-allowance": { kind: "count", value: "N", description: "videos a month" },
      "storage-mb": { kind: "count", value: "N", description: "storage in MB" },
      seats: { kind: "count", value: "N", description: "member seats" }
    },
    request: (args, options) => ({
      method: "PUT",
      path: workspacePath(args, "/limits"),
      body: bodyOf(options, { "render-allowance": "renderAllowance", "storage-mb": "storageMb", seats: "seats" }),
      admin: true
    })
  },
  {
    words: ["platform-key", "create"],
    summary: "issue a platform credential (ingest:shipped scope, for /v1/broadcast)",
    args: [],
    options: {
      name: { kind: "string", value: "NAME", description: "a label for the key" }
    },
    request: (_args, options) => ({
      method: "POST",
      path: "/admin/platform-keys",
      body: bodyOf(options, { name: "name" }),
      admin: true
    })
  }
]

/** Turns one option's text into what the body carries; a value that cannot be is a usage error. */
export const convertOption = (name: string, spec: OptionSpec, text: string, command?: Command): OptionValue => {
  switch (spec.kind) {
    case "string":
      return text
    case "count": {
      if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
        throw new UsageError(`--${name} takes a whole number of 0 or more, not "${text}"`, command)
      }
      return Number(text)
    }
    case "scopes": {
      const scopes = text.split(",").map((s) => s.trim()).filter((s) => s !== "")
      if (scopes.length === 0) throw new UsageError(`--${name} needs at least one permission, or *`, command)
      return scopes
    }
    case "role": {
      if (!(ROLES as ReadonlyArray<string>).includes(text)) {
        throw new UsageError(`--${name} is one of ${ROLES.join(", ")}, not "${text}"`, command)
      }
      return text
    }
  }
}
