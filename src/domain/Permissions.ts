/** The permission model of SPEC "Authentication": `<area>:<read|write>`, matched exactly. */
const readWriteAreas = [
  "streams",
  "feeds",
  "templates",
  "channels",
  "connections",
  "posts",
  "approvals",
  "brands",
  "media",
  "renders",
  "postlists"
] as const

export const workspaceScopes: ReadonlyArray<string> = [
  ...readWriteAreas.flatMap((area) => [`${area}:read`, `${area}:write`]),
  "ingest:write",
  "received:read",
  "allowance:read"
]

export const PLATFORM_SCOPE = "ingest:shipped"

/** What a route demands of the caller. */
export type Requirement =
  | { readonly _tag: "Permission"; readonly permission: string; readonly public: boolean }
  | { readonly _tag: "AnyKey" }
  | { readonly _tag: "OwnerOnly" }
  | { readonly _tag: "Platform" }

const permission = (p: string, isPublic = false): Requirement => ({
  _tag: "Permission",
  permission: p,
  public: isPublic
})

const areaBySegment: Record<string, string> = {
  streams: "streams",
  feeds: "feeds",
  templates: "templates",
  formats: "templates",
  catalogue: "templates",
  channels: "channels",
  connections: "connections",
  connector: "connections",
  deliveries: "connections",
  jobs: "posts",
  posts: "posts",
  pipeline: "posts",
  overview: "posts",
  calendar: "posts",
  approvals: "approvals",
  brands: "brands",
  media: "media",
  assets: "media",
  storage: "media",
  "render-jobs": "renders",
  "direct-export": "renders",
  "export-files": "renders",
  queues: "postlists"
}

/** Readable without a bearer. Export links (`export-files`) are served by a group without Authentication at all. */
const publicSegments = new Set(["formats", "catalogue", "export-files"])

/** Maps a `/v1/...` route (method and path) to what it requires; one table for the whole API. */
export const requirementFor = (method: string, path: string): Requirement => {
  const segments = path.split("/").filter((s) => s !== "")
  const first = segments[1] ?? ""
  const write = !(method === "GET" || method === "HEAD")
  const mode = write ? "write" : "read"
  switch (first) {
    case "whoami":
      return { _tag: "AnyKey" }
    case "stream":
    case "ingest":
      return permission("ingest:write")
    case "ingest-events":
      return permission("received:read")
    case "broadcast":
    case "broadcasts":
      return { _tag: "Platform" }
    case "renders":
      return segments[2] === "quota" ? permission("allowance:read") : { _tag: "OwnerOnly" }
  }
  const area = Object.hasOwn(areaBySegment, first) ? areaBySegment[first]! : first
  return permission(`${area}:${mode}`, publicSegments.has(first) && !write)
}

export const hasPermission = (scopes: ReadonlyArray<string>, wanted: string): boolean =>
  scopes.includes(wanted) || (scopes.includes("*") && wanted !== PLATFORM_SCOPE)
