import { expect } from "vitest"
import type { Answer } from "./Client.js"

export const MARKET = "tpl_3a7c91e04b5d"
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/
export const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/

/** One implemented `/v1` route and what it demands (SPEC "Endpoints"); `any` is "any valid key". */
export interface Route {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly permission: string
  /** Its sibling of the other mode (read vs write) in the same area, which must not do. */
  readonly otherMode: string | null
  /** The status a permitted call answers. */
  readonly ok: number
  readonly path: (streamId: string) => string
  readonly body?: (streamId: string) => unknown
}

let drawn = 0

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
/** A fresh ULID-shaped event id (time part from the clock, then a counter): unique within a test run. */
export const newEventId = () => {
  let time = Date.now()
  let head = ""
  for (let i = 0; i < 10; i++, time = Math.floor(time / 32)) head = CROCKFORD[time % 32] + head
  return head + String(++drawn).padStart(16, "0")
}

/** Content the market-move template's standard variant (the index-close feed) accepts. */
export const indexClose = {
  clipData: {
    headline: "European stocks close higher",
    figures: [{ label: "STOXX 600", value: 512.37, unit: "pts", direction: "up" }]
  }
}

/**
 * The implemented routes, one row each. Routes not implemented yet are not listed; the owner-only ones
 * (`/v1/renders/buy|keep|drop`) are kept apart, as they are refused to every key whatever its permissions.
 */
export const routes: ReadonlyArray<Route> = [
  { name: "GET /v1/whoami", method: "GET", permission: "any", otherMode: null, ok: 200, path: () => "/v1/whoami" },
  {
    name: "GET /v1/streams",
    method: "GET",
    permission: "streams:read",
    otherMode: "streams:write",
    ok: 200,
    path: () => "/v1/streams"
  },
  {
    name: "POST /v1/streams",
    method: "POST",
    permission: "streams:write",
    otherMode: "streams:read",
    ok: 201,
    path: () => "/v1/streams",
    body: () => ({ name: `Permitted ${++drawn}`, templateId: MARKET })
  },
  {
    name: "POST /v1/streams/{id}/update",
    method: "POST",
    permission: "streams:write",
    otherMode: "streams:read",
    ok: 200,
    path: (id) => `/v1/streams/${id}/update`,
    body: () => ({ name: `Renamed ${++drawn}` })
  },
  {
    name: "GET /v1/templates",
    method: "GET",
    permission: "templates:read",
    otherMode: "templates:write",
    ok: 200,
    path: () => "/v1/templates"
  },
  {
    name: "GET /v1/render-jobs",
    method: "GET",
    permission: "renders:read",
    otherMode: "renders:write",
    ok: 200,
    path: () => "/v1/render-jobs"
  },
  {
    name: "GET /v1/stream",
    method: "GET",
    permission: "ingest:write",
    otherMode: null,
    ok: 200,
    path: () => "/v1/stream"
  },
  {
    // Data that does not fit the template is still a landed event: 202 unmapped.
    name: "POST /v1/stream",
    method: "POST",
    permission: "ingest:write",
    otherMode: null,
    ok: 202,
    path: () => "/v1/stream",
    body: (streamId) => ({ streamId, eventId: newEventId(), occurredAt: new Date().toISOString(), data: {} })
  },
  {
    name: "POST /v1/stream/validate",
    method: "POST",
    permission: "ingest:write",
    otherMode: null,
    ok: 200,
    path: () => "/v1/stream/validate",
    body: (streamId) => ({ streamId, eventId: newEventId(), occurredAt: new Date().toISOString(), data: {} })
  },
  {
    name: "POST /v1/ingest/{source}/{format}/validate",
    method: "POST",
    permission: "ingest:write",
    otherMode: null,
    ok: 200,
    path: () => "/v1/ingest/markets/index-close/validate",
    body: () => ({ eventId: newEventId(), occurredAt: new Date().toISOString(), data: indexClose })
  },
  {
    name: "GET /v1/jobs/{id}/download",
    method: "GET",
    permission: "posts:read",
    otherMode: "posts:write",
    ok: 404,
    path: () => "/v1/jobs/01JAAAAAAAAAAAAAAAAAAAAAAA/download"
  },
  {
    name: "GET /v1/posts/{id}/package",
    method: "GET",
    permission: "posts:read",
    otherMode: "posts:write",
    ok: 404,
    path: () => "/v1/posts/01JAAAAAAAAAAAAAAAAAAAAAAA/package"
  },
  {
    name: "POST /v1/jobs/{id}/update",
    method: "POST",
    permission: "posts:write",
    otherMode: "posts:read",
    ok: 404,
    path: () => "/v1/jobs/01JAAAAAAAAAAAAAAAAAAAAAAA/update",
    body: () => ({ caption: "New text" })
  },
  {
    name: "POST /v1/jobs/{id}/repost",
    method: "POST",
    permission: "posts:write",
    otherMode: "posts:read",
    ok: 404,
    path: () => "/v1/jobs/01JAAAAAAAAAAAAAAAAAAAAAAA/repost"
  },
  {
    name: "GET /v1/approvals",
    method: "GET",
    permission: "approvals:read",
    otherMode: "approvals:write",
    ok: 200,
    path: () => "/v1/approvals"
  },
  {
    // No approval has this id: a permitted key gets past the permission check to the workspace's 404.
    name: "POST /v1/approvals/{id}",
    method: "POST",
    permission: "approvals:write",
    otherMode: "approvals:read",
    ok: 404,
    path: () => "/v1/approvals/01JAAAAAAAAAAAAAAAAAAAAAAA",
    body: () => ({ state: "APPROVED" })
  },
  {
    name: "POST /v1/jobs/{id}/cancel",
    method: "POST",
    permission: "posts:write",
    otherMode: "posts:read",
    ok: 404,
    path: () => "/v1/jobs/01JAAAAAAAAAAAAAAAAAAAAAAA/cancel"
  },
  {
    name: "GET /v1/jobs",
    method: "GET",
    permission: "posts:read",
    otherMode: "posts:write",
    ok: 200,
    path: () => "/v1/jobs"
  },
  {
    name: "GET /v1/posts",
    method: "GET",
    permission: "posts:read",
    otherMode: "posts:write",
    ok: 200,
    path: () => "/v1/posts"
  },
  {
    name: "GET /v1/ingest-events",
    method: "GET",
    permission: "received:read",
    otherMode: null,
    ok: 200,
    path: () => "/v1/ingest-events"
  },
  {
    // No event has this id: a permitted key gets past the permission check to the workspace's 404.
    name: "GET /v1/ingest-events/{id}",
    method: "GET",
    permission: "received:read",
    otherMode: null,
    ok: 404,
    path: () => "/v1/ingest-events/01JAAAAAAAAAAAAAAAAAAAAAAA"
  },
  {
    name: "GET /v1/pipeline",
    method: "GET",
    permission: "posts:read",
    otherMode: "posts:write",
    ok: 200,
    path: () => "/v1/pipeline"
  },
  {
    // No job has this id: a permitted key gets past the permission check to the workspace's 404.
    name: "GET /v1/pipeline/{id}",
    method: "GET",
    permission: "posts:read",
    otherMode: "posts:write",
    ok: 404,
    path: () => "/v1/pipeline/01JAAAAAAAAAAAAAAAAAAAAAAA"
  },
  {
    name: "GET /v1/overview",
    method: "GET",
    permission: "posts:read",
    otherMode: "posts:write",
    ok: 200,
    path: () => "/v1/overview"
  },
  {
    name: "GET /v1/calendar",
    method: "GET",
    permission: "posts:read",
    otherMode: "posts:write",
    ok: 200,
    path: () => "/v1/calendar?from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z"
  },
  {
    name: "GET /v1/media/renders",
    method: "GET",
    permission: "media:read",
    otherMode: "media:write",
    ok: 200,
    path: () => "/v1/media/renders"
  },
  {
    name: "GET /v1/media",
    method: "GET",
    permission: "media:read",
    otherMode: "media:write",
    ok: 200,
    path: () => "/v1/media"
  },
  {
    name: "POST /v1/storage/split",
    method: "POST",
    permission: "media:write",
    otherMode: "media:read",
    ok: 200,
    path: () => "/v1/storage/split",
    body: () => ({ mediaSharePercent: 50 })
  },
  {
    name: "GET /v1/brands",
    method: "GET",
    permission: "brands:read",
    otherMode: "brands:write",
    ok: 200,
    path: () => "/v1/brands"
  },
  {
    name: "POST /v1/brands",
    method: "POST",
    permission: "brands:write",
    otherMode: "brands:read",
    ok: 201,
    path: () => "/v1/brands",
    body: () => ({ name: `Brand ${++drawn}` })
  },
  {
    name: "POST /v1/brands/palette",
    method: "POST",
    permission: "brands:write",
    otherMode: "brands:read",
    ok: 200,
    path: () => "/v1/brands/palette",
    body: () => ({ brand: "#1f6feb" })
  },
  {
    name: "GET /v1/channels",
    method: "GET",
    permission: "channels:read",
    otherMode: "channels:write",
    ok: 200,
    path: () => "/v1/channels"
  },
  {
    name: "GET /v1/channels/surfaces",
    method: "GET",
    permission: "channels:read",
    otherMode: "channels:write",
    ok: 200,
    path: () => "/v1/channels/surfaces"
  },
  {
    name: "GET /v1/feeds",
    method: "GET",
    permission: "feeds:read",
    otherMode: "feeds:write",
    ok: 200,
    path: () => "/v1/feeds"
  },
  {
    name: "GET /v1/connections",
    method: "GET",
    permission: "connections:read",
    otherMode: "connections:write",
    ok: 200,
    path: () => "/v1/connections"
  },
  {
    name: "GET /v1/feeds/{feedId}/reference",
    method: "GET",
    permission: "feeds:read",
    otherMode: "feeds:write",
    ok: 200,
    path: () => "/v1/feeds/fd_4b1e9c2a7d03/reference"
  },
  {
    name: "GET /v1/renders/quota",
    method: "GET",
    permission: "allowance:read",
    otherMode: null,
    ok: 200,
    path: () => "/v1/renders/quota"
  }
]

export const ownerOnlyRoutes = ["/v1/renders/buy", "/v1/renders/keep", "/v1/renders/drop"] as const

/** The spec's error envelope with its status and code, tied to the response's `x-request-id`. */
export const expectError = (r: Answer, status: number, code: string) => {
  expect({ status: r.status, code: r.body?.error?.code }, r.text).toEqual({ status, code })
  const error = r.body.error
  expect(error.type).toMatch(new RegExp(`/errors/${code}$`))
  expect(typeof error.message).toBe("string")
  expect(error.message.length).toBeGreaterThan(0)
  expect(error.message).not.toMatch(/^\s*at\s/m)
  expect(error.message).not.toMatch(/\.[jt]s:\d+/)
  expect(error.requestId).toMatch(ULID)
  expect(error.requestId).toBe(r.headers.get("x-request-id"))
  expect(Array.isArray(error.details)).toBe(true)
  return error as { type: string; code: string; message: string; requestId: string; details: Array<any> }
}
