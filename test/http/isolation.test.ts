import { OpenApi } from "@effect/platform"
import { beforeAll, describe, expect, it } from "vitest"
import { ClipwrightApi } from "../../src/Api.js"
import { requirementFor, workspaceScopes } from "../../src/domain/Permissions.js"
import { packageBody } from "../queues/QueueDesk.js"
import { admin, type Answer, call, workspaceWithKey } from "../support/Client.js"
import { png } from "../support/MediaFiles.js"
import { fillPath, FIXED_PARAMS, isIdLike, type Operation, operationsOf } from "../support/OpenApiOperations.js"
import { useNode } from "../support/Rig.js"
import { expectError, routes } from "../support/Routes.js"
import { upload } from "../support/Uploads.js"
import { buildResources, missingLike, type ResourceIds } from "../support/WorkspaceResources.js"

/**
 * Which kind of record each id-like path parameter names, per operation path. A new route with an id in its path
 * fails "every id-like parameter has a kind" until it is added here, so it cannot miss the isolation matrix.
 * `shared` ids name the catalogue every workspace reads; `unkeyed` routes take no key (signed links, platform).
 */
const idKinds: Record<string, Record<string, string>> = {
  "/v1/streams/{id}/update": { id: "stream" },
  "/v1/streams/{id}/delete": { id: "stream" },
  "/v1/streams/{id}/suggest-map": { id: "stream" },
  "/v1/broadcast/{id}": { id: "platform" },
  "/v1/ingest-events/{id}": { id: "event" },
  "/v1/templates/{templateId}/reference": { templateId: "shared" },
  "/v1/formats/template/{templateId}": { templateId: "shared" },
  "/v1/templates/{templateId}/reference/{ratio}": { templateId: "shared" },
  "/v1/render-jobs/{id}/package": { id: "export" },
  "/v1/direct-export/video/{jobId}": { jobId: "export" },
  "/v1/direct-export/video/{jobId}/discard": { jobId: "export" },
  "/v1/direct-export/video/{jobId}/download": { jobId: "export" },
  "/v1/direct-export/video/{jobId}/link": { jobId: "export" },
  "/v1/direct-export/videos/{jobId}": { jobId: "export" },
  "/v1/direct-export/video/{jobId}/reuse": { jobId: "export" },
  "/v1/export-files/{jobId}": { jobId: "unkeyed" },
  "/v1/media/renders/{id}/delete": { id: "clip" },
  "/v1/assets/{id}": { id: "clip" },
  "/v1/assets/{id}/download": { id: "unkeyed" },
  "/v1/brands/{id}": { id: "brand" },
  "/v1/brands/{id}/delete": { id: "brand" },
  "/v1/brands/{id}/assets/{slot}": { id: "brand" },
  "/v1/brands/{id}/assets/{slot}/link": { id: "brand" },
  "/v1/brands/{id}/assets/{slot}/delete": { id: "brand" },
  "/v1/channels/{id}": { id: "channel" },
  "/v1/channels/{id}/delete": { id: "channel" },
  "/v1/channels/{id}/subscriptions": { id: "channel" },
  "/v1/channels/{id}/subscriptions/{subId}": { id: "channel", subId: "subscription" },
  "/v1/channels/{id}/subscriptions/{subId}/delete": { id: "channel", subId: "subscription" },
  "/v1/channels/{id}/credentials": { id: "channel" },
  "/v1/channels/{id}/credentials/delete": { id: "channel" },
  "/v1/media/{id}/rename": { id: "media" },
  "/v1/media/{id}/delete": { id: "media" },
  "/v1/media/{id}/uses": { id: "media" },
  "/v1/media/{id}/preview": { id: "unkeyed" },
  "/v1/formats/feed/{feedId}": { feedId: "shared" },
  "/v1/feeds/{feedId}/reference": { feedId: "shared" },
  "/v1/feeds/{feedId}/reference/{ratio}": { feedId: "shared" },
  "/v1/pipeline/{id}": { id: "job" },
  "/v1/jobs/{id}/cancel": { id: "job" },
  "/v1/jobs/{id}/update": { id: "job" },
  "/v1/jobs/{id}/delete": { id: "job" },
  "/v1/jobs/{id}/repost": { id: "job" },
  "/v1/approvals/{id}": { id: "approval" },
  "/v1/jobs/{id}/download": { id: "job" },
  "/v1/posts/{id}/package": { id: "post" },
  "/v1/receipts/{postId}": { postId: "unkeyed" },
  "/v1/deliveries/{id}": { id: "delivery" },
  "/v1/deliveries/{id}/redeliver": { id: "delivery" },
  "/v1/queues/{id}": { id: "queue" },
  "/v1/queues/{id}/delete": { id: "queue" },
  "/v1/queues/{id}/packages": { id: "queue" },
  "/v1/queues/{id}/packages/{packageId}": { id: "queue", packageId: "package" },
  "/v1/queues/{id}/packages/{packageId}/delete": { id: "queue", packageId: "package" }
}

/** A body each write would accept, so that the call reaches the lookup of its id (default `{}`). */
const bodies: Record<string, unknown> = {
  "POST /v1/streams/{id}/update": { name: "Renamed" },
  "POST /v1/approvals/{id}": { state: "APPROVED" },
  "POST /v1/jobs/{id}/update": { caption: "New text" },
  "PATCH /v1/channels/{id}/subscriptions/{subId}": { enabled: false },
  "PATCH /v1/brands/{id}": { name: "Renamed" },
  "PATCH /v1/channels/{id}": { name: "Renamed" },
  "PATCH /v1/queues/{id}": { name: "Renamed" },
  "POST /v1/media/{id}/rename": { name: "renamed.png" },
  "POST /v1/channels/{id}/subscriptions": { kind: "BROADCAST", sourceSlug: "markets", formatSlug: "index-close" },
  "PATCH /v1/queues/{id}/packages/{packageId}": { title: "Renamed" },
  "POST /v1/brands/{id}/assets/{slot}/link": { url: "media://pic.png" },
  "PUT /v1/channels/{id}/credentials": { fields: [{ key: "access_token", value: "EAAB-token" }] },
  "POST /v1/queues/{id}/packages": packageBody()
}

const isolatedKind = (kind: string) => !["shared", "unkeyed", "platform"].includes(kind)

let served: Record<string, any>
let ownIds: ResourceIds
let keyA: string
let keyB: string

const { db, node } = useNode({ label: "isolation" })

beforeAll(async () => {
  const answer = await call(node.url, "GET", "/v1/openapi.json")
  expect(answer.status, answer.text).toBe(200)
  served = answer.body
  const a = await workspaceWithKey(node, ["*"], "Workspace A")
  const b = await workspaceWithKey(node, ["*"], "Workspace B")
  keyA = a.apiKey
  keyB = b.apiKey
  ownIds = await buildResources(node.url, db.url, a)
}, 180_000)

const v1 = () => operationsOf(served).filter((op) => op.path.startsWith("/v1/"))
const withIds = () => v1().filter((op) => op.pathParams.some(isIdLike))
const isolated = () => withIds().filter((op) => Object.values(idKinds[op.path] ?? {}).some(isolatedKind))

/** The path of `op` naming records of kind `pick(kind)` in its id parameters. */
const pathOf = (op: Operation, pick: (kind: string) => string) =>
  fillPath(op.path, {
    ...FIXED_PARAMS,
    ...Object.fromEntries(Object.entries(idKinds[op.path] ?? {}).map(([param, kind]) => [param, pick(kind)]))
  })

const idIn = (kind: string) => ownIds[kind] ?? FIXED_PARAMS["templateId"]!
/** Routes that take a file rather than JSON. */
const uploads = new Set(["POST /v1/brands/{id}/assets/{slot}"])

const send = (op: Operation, key: string, path: string) =>
  uploads.has(`${op.method} ${op.path}`) ?
    upload(`${node.url}${path}`, key, { bytes: png(8, 8), name: "logo.png" }) :
    call(
      node.url,
      op.method,
      path,
      op.method === "GET" ? { key } : { key, body: bodies[`${op.method} ${op.path}`] ?? {} }
    )

/** The answer with the request id dropped and every id of `ids` replaced by a placeholder. */
const comparable = (r: Answer, ids: ReadonlyArray<string>) => {
  let text = r.text
  for (const id of ids) text = text.split(id).join("<id>")
  const body = JSON.parse(text)
  delete body?.error?.requestId
  return { status: r.status, body }
}

describe("the OpenAPI document drives the matrix", () => {
  it("is the document the matrix rows are built from", () => {
    expect(v1()).toEqual(documentOperations())
  })

  it("every id-like path parameter has a kind in the table", () => {
    expect(withIds().length).toBeGreaterThan(40)
    const missing = withIds().flatMap((op) =>
      op.pathParams.filter((p) => isIdLike(p) && idKinds[op.path]?.[p] === undefined).map((p) => `${op.name} {${p}}`)
    )
    expect(missing).toEqual([])
  })

  it("every kind named in the table is built in workspace A", () => {
    const kinds = new Set(Object.values(idKinds).flatMap((params) => Object.values(params)).filter(isolatedKind))
    expect([...kinds].filter((kind) => ownIds[kind] === undefined)).toEqual([])
  })

  it("every key-secured /v1 operation states the permission the middleware checks", () => {
    const disagreeing = v1().filter((op) => op.keySecured).flatMap((op) => {
      const requirement = requirementFor(
        op.method,
        fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, "x"])))
      )
      const stated = requirement._tag === "Permission" ? requirement.permission : undefined
      return stated === op.permission
        ? []
        : [`${op.name}: document ${op.permission}, middleware ${JSON.stringify(requirement)}`]
    })
    expect(disagreeing).toEqual([])
  })

  it("the hand-kept route list of permissions.test.ts agrees with the document", () => {
    const documented = new Map(v1().map((op) => [op.name, op.permission ?? "any"]))
    const disagreeing = routes
      .filter((route) => documented.get(route.name) !== route.permission)
      .map((route) => `${route.name}: listed ${route.permission}, document ${documented.get(route.name)}`)
    expect(disagreeing).toEqual([])
  })
})

describe("another workspace's id answers exactly like a missing one", () => {
  it("workspace A's own key finds its records on every read", async () => {
    const reads = isolated().filter((op) => op.method === "GET")
    const answers = await Promise.all(
      reads.map(async (op) => [op.name, (await send(op, keyA, pathOf(op, idIn))).status])
    )
    expect(answers.filter(([, status]) => status === 404)).toEqual([])
  })

  it.each(isolatedOps())("$name with workspace B's key", async (op) => {
    const foreign = await send(op, keyB, pathOf(op, idIn))
    const absent = await send(op, keyB, pathOf(op, (kind) => missingLike(idIn(kind))))
    expectError(absent, 404, absent.body?.error?.code ?? "not_found")
    const ids = Object.values(idKinds[op.path]!).flatMap((kind) => [idIn(kind), missingLike(idIn(kind))])
    expect(comparable(foreign, ids)).toEqual(comparable(absent, ids))
  })
})

describe("every /v1 operation refuses a key lacking its permission", () => {
  let lacking: Map<string, string>

  beforeAll(async () => {
    const { accountId } = await admin(node).workspace("Scoped")
    lacking = new Map()
    for (const permission of workspaceScopes) {
      lacking.set(
        permission,
        (await admin(node).key(accountId, workspaceScopes.filter((s) => s !== permission))).apiKey
      )
    }
  })

  it.each(permissionedOps())("$name: 403 naming $permission", async (op) => {
    const path = pathOf(op, (kind) => missingLike(idIn(kind)))
    const r = await send(op, lacking.get(op.permission!)!, path)
    expect(expectError(r, 403, "forbidden").message).toContain(op.permission)
  })
})

// `it.each` needs its rows when the file is collected, before the node serves the document: the same document is
// built in-process here and checked equal to the served one by openapi.test.ts.
function documentOperations() {
  return operationsOf(JSON.parse(JSON.stringify(OpenApi.fromApi(ClipwrightApi)))).filter((op) =>
    op.path.startsWith("/v1/")
  )
}
function isolatedOps() {
  return documentOperations().filter((op) => Object.values(idKinds[op.path] ?? {}).some(isolatedKind))
}
function permissionedOps() {
  return documentOperations().filter((op) => op.keySecured && op.permission !== undefined)
}
