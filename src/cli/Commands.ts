/** The operator commands: one per admin route of CONTRACT.md, plus `health`. */
import type { HttpClientResponse } from "@effect/platform"
import type { Cause, Effect } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import type { NodeClient } from "./Client.js"

export class UsageError extends Error {
  override readonly name = "UsageError"
  constructor(message: string, readonly command?: Command) {
    super(message)
  }
}

export type OptionKind = "string" | "count" | "scopes" | "list" | "role"

export interface OptionSpec {
  readonly kind: OptionKind
  readonly value: string
  readonly description: string
  readonly required?: boolean
}

export type OptionValue = string | number | ReadonlyArray<string>

type Options = Readonly<Record<string, OptionValue>>

/** One call of the contract's client, with the raw response kept so the node's own JSON is what gets printed. */
export type Call = Effect.Effect<readonly [unknown, HttpClientResponse.HttpClientResponse], Cause.YieldableError>

export interface Command {
  /** The words after `admin`, e.g. `["key", "create"]`. */
  readonly words: ReadonlyArray<string>
  readonly summary: string
  readonly args: ReadonlyArray<string>
  readonly options: Readonly<Record<string, OptionSpec>>
  /** Whether the admin token is sent. */
  readonly admin: boolean
  readonly call: (client: NodeClient, args: ReadonlyArray<string>, options: Options) => Call
}

export const ROLES = ["owner", "operations", "member"] as const

type Role = typeof ROLES[number]

const isRole = (value: OptionValue | undefined): value is Role => ROLES.some((r) => r === value)

// The contract's client puts path parameters into the URL as given.
const segment = (value: string | undefined) => encodeURIComponent(value ?? "")

/** The operator names the workspace; the node answers 404 for an id it does not have. */
const workspace = (accountId: string | undefined) => WorkspaceId.make(segment(accountId))

const textOf = (options: Options, name: string) => {
  const value = options[name]
  return typeof value === "string" ? value : undefined
}

const countOf = (options: Options, name: string) => {
  const value = options[name]
  return typeof value === "number" ? value : undefined
}

/** `parse` refuses a command line without a required option, so a missing one here is a bug. */
const required = <A>(value: A | undefined, name: string): A => {
  if (value === undefined) throw new Error(`--${name} was not checked as required`)
  return value
}

const listOf = (options: Options, name: string) => {
  const value = options[name]
  return required(typeof value === "object" ? value : undefined, name)
}

const scopesOf = (options: Options) => {
  const value = options["scopes"]
  return required(typeof value === "object" ? value : undefined, "scopes")
}

const roleOf = (options: Options) => {
  const value = options["role"]
  return required(isRole(value) ? value : undefined, "role")
}

export const commands: ReadonlyArray<Command> = [
  {
    words: ["health"],
    summary: "GET /health: whether the node serves (no token needed)",
    args: [],
    options: {},
    admin: false,
    call: (client) => client.system.health({ withResponse: true })
  },
  {
    words: ["workspace", "create"],
    summary: "create a workspace (500 renders a month and 1024 MB unless limits say otherwise)",
    args: [],
    options: {
      name: { kind: "string", value: "NAME", description: "workspace name, 1 to 120 characters", required: true },
      "owner-email": { kind: "string", value: "EMAIL", description: "email address of the first owner" }
    },
    admin: true,
    call: (client, _args, options) =>
      client.admin.createWorkspace({
        payload: { name: required(textOf(options, "name"), "name"), ownerEmail: textOf(options, "owner-email") },
        withResponse: true
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
    admin: true,
    call: (client, [accountId], options) =>
      client.admin.createKey({
        path: { accountId: workspace(accountId) },
        payload: { scopes: scopesOf(options), name: textOf(options, "name") },
        withResponse: true
      })
  },
  {
    words: ["key", "revoke"],
    summary: "revoke an API key; it is refused (401) from then on",
    args: ["accountId", "keyId"],
    options: {},
    admin: true,
    call: (client, [accountId, keyId]) =>
      client.admin.revokeKey({ path: { accountId: workspace(accountId), keyId: segment(keyId) }, withResponse: true })
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
    admin: true,
    call: (client, [accountId], options) =>
      client.admin.setWebhook({
        path: { accountId: workspace(accountId) },
        payload: { url: required(textOf(options, "url"), "url") },
        withResponse: true
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
    admin: true,
    call: (client, [accountId], options) =>
      client.admin.addMember({
        path: { accountId: workspace(accountId) },
        payload: { email: required(textOf(options, "email"), "email"), role: roleOf(options) },
        withResponse: true
      })
  },
  {
    words: ["limits", "set"],
    summary: "set a workspace's limits; prints the resulting quota (no option: just print it)",
    args: ["accountId"],
    options: {
      "render-allowance": { kind: "count", value: "N", description: "videos a month" },
      "storage-mb": { kind: "count", value: "N", description: "storage in MB" },
      seats: { kind: "count", value: "N", description: "member seats" },
      "extra-ceiling": { kind: "count", value: "N", description: "extra renders the owner may buy a month" }
    },
    admin: true,
    call: (client, [accountId], options) =>
      client.adminLimits.setLimits({
        path: { accountId: workspace(accountId) },
        payload: {
          renderAllowance: countOf(options, "render-allowance"),
          storageMb: countOf(options, "storage-mb"),
          seats: countOf(options, "seats"),
          extraCeiling: countOf(options, "extra-ceiling")
        },
        withResponse: true
      })
  },
  {
    words: ["entitlements", "set"],
    summary: "set the shipped feed sources a workspace is entitled to; prints the sources now in force",
    args: ["accountId"],
    options: {
      sources: {
        kind: "list",
        value: "a,b",
        description: "comma-separated source slugs, e.g. markets,news; \"\" for none",
        required: true
      }
    },
    admin: true,
    call: (client, [accountId], options) =>
      client.adminFeeds.setEntitlements({
        path: { accountId: workspace(accountId) },
        payload: { sources: listOf(options, "sources") },
        withResponse: true
      })
  },
  {
    words: ["platform-key", "create"],
    summary: "issue a platform credential (ingest:shipped scope, for /v1/broadcast)",
    args: [],
    options: {
      name: { kind: "string", value: "NAME", description: "a label for the key" }
    },
    admin: true,
    call: (client, _args, options) =>
      client.admin.createPlatformKey({ payload: { name: textOf(options, "name") }, withResponse: true })
  },
  {
    words: ["platform-key", "list"],
    summary: "list the platform keys with when each was created and revoked (never the keys themselves)",
    args: [],
    options: {},
    admin: true,
    call: (client) => client.admin.listPlatformKeys({ withResponse: true })
  },
  {
    words: ["platform-key", "revoke"],
    summary: "revoke a platform key: it is refused (401) from then on, on every node",
    args: ["keyId"],
    options: {},
    admin: true,
    call: (client, [keyId]) => client.admin.revokePlatformKey({ path: { keyId: segment(keyId) }, withResponse: true })
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
    case "list":
      return text.split(",").map((s) => s.trim()).filter((s) => s !== "")
    case "role": {
      if (!(ROLES as ReadonlyArray<string>).includes(text)) {
        throw new UsageError(`--${name} is one of ${ROLES.join(", ")}, not "${text}"`, command)
      }
      return text
    }
  }
}
