import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { ErrorCatalogue, type ErrorCode } from "../../src/domain/Errors.js"

/** One test that provokes the code through the public HTTP API (or the shipped receiver's) and checks its envelope. */
interface ProvokedBy {
  readonly file: string
  readonly test: string
}

/**
 * Every code of SPEC "Errors" and a test that makes the service answer it. A code added to `ErrorCatalogue` without a
 * row here fails this file (and the type check), so no code can be left unreachable.
 */
const provokedBy: Record<ErrorCode, ProvokedBy> = {
  malformed_json: { file: "http/errors.test.ts", test: "malformed_json: a body that is not JSON" },
  schema_validation: {
    file: "http/errors.test.ts",
    test: "schema_validation: wrong types, each detail an RFC 6901 pointer"
  },
  ratio_not_supported: {
    file: "renders/reference-clips.test.ts",
    test: "refuses a shape the build does not draw, and unknown templates, variants and builds"
  },
  locale_not_supported: {
    file: "renders/exports.test.ts",
    test: "refuses before submitting anything: template, version, ratio, locale, content, batch size"
  },
  blocked_url: {
    file: "identity/admin.test.ts",
    test: "refuses loopback, private and link-local addresses with 400 blocked_url at /url"
  },
  unauthenticated: { file: "http/errors.test.ts", test: "unauthenticated: no key" },
  signature_invalid: {
    file: "delivery/receiver.test.ts",
    test: "answers replayed, timestamp_skew and signature_invalid in the error envelope"
  },
  timestamp_skew: {
    file: "delivery/receiver.test.ts",
    test: "answers replayed, timestamp_skew and signature_invalid in the error envelope"
  },
  forbidden: { file: "http/errors.test.ts", test: "forbidden: a key without the permission" },
  not_found: {
    file: "http/errors.test.ts",
    test: "not_found: another workspace's stream answers exactly like a missing one"
  },
  unknown_source: { file: "feeds/feeds.test.ts", test: "answers unknown_source and unknown_format" },
  unknown_format: {
    file: "ingest/feed-ingest.test.ts",
    test: "unknown source or format: 404 unknown_source / unknown_format"
  },
  unknown_template: { file: "http/errors.test.ts", test: "unknown_template: a template that is not offered" },
  unknown_stream: {
    file: "ingest/stream-send.test.ts",
    test: "a deleted stream stops its listening channels and refuses events as unknown; what it received stays"
  },
  conflict: { file: "http/errors.test.ts", test: "conflict: a taken stream id" },
  idempotency_conflict: {
    file: "ingest/stream-send.test.ts",
    test: "a repeat is 200 duplicate with the original id; another body under the eventId is 409"
  },
  invalid_state_transition: {
    file: "queues/packages.test.ts",
    test: "cancels a post; a cancelled post cannot change (409 invalid_state_transition); delete removes a post"
  },
  stream_disabled: {
    file: "ingest/stream-send.test.ts",
    test: "a disabled stream: 409 stream_disabled on send and on validate"
  },
  no_sample: { file: "http/errors.test.ts", test: "no_sample: suggest-map before the stream received anything" },
  template_not_approved: {
    file: "errors/template-not-approved.test.ts",
    test: "a direct export, batch or keyframes naming a template not cleared is 409 at /templateId, nothing started"
  },
  replayed: {
    file: "delivery/receiver.test.ts",
    test: "answers replayed, timestamp_skew and signature_invalid in the error envelope"
  },
  payload_too_large: { file: "http/errors.test.ts", test: "payload_too_large: a JSON body over 1 MB" },
  unsupported_media_type: {
    file: "http/errors.test.ts",
    test: "unsupported_media_type: a text/plain body to a JSON route"
  },
  rate_limited: {
    file: "renders/exports.test.ts",
    test: "never over-spends: 10 parallel submits at an allowance of 3 start exactly 3; the rest are 429"
  },
  internal: {
    file: "errors/service-faults.test.ts",
    test: "internal: a store that fails under a request is 500 with no SQL, stack or secret, and the node serves on"
  },
  render_failed: {
    file: "errors/service-faults.test.ts",
    test: "render_failed: a reference clip the renderer cannot encode is 502, without the encoder's words"
  },
  asset_unavailable: {
    file: "renders/export-files.test.ts",
    test: "download 409, link 502, zip 409 naming it; reuse works while rendering"
  },
  checksum_mismatch: {
    file: "errors/checksum-mismatch.test.ts",
    test: "a media file whose stored bytes no longer match its sha256 is 502 on its preview, never the wrong bytes"
  },
  upstream_unavailable: {
    file: "renders/capacity.test.ts",
    test: "answers 503 upstream_unavailable with retryAfterSeconds when no renderer can take the work"
  },
  render_timeout: {
    file: "errors/render-timeout.test.ts",
    test: "an export past the render time limit ends timed_out; its video and link are 504, nothing counted"
  }
}

const testRoot = path.resolve(import.meta.dirname, "..")
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
const codes = Object.keys(ErrorCatalogue) as Array<ErrorCode>

describe("every error code of the spec is provoked by a test", () => {
  it("the table has a row for each code of the catalogue, and no other", () => {
    const missing = codes.filter((code) => !Object.hasOwn(provokedBy, code))
    expect(missing, `codes no test provokes: ${missing.join(", ")}`).toEqual([])
    expect(Object.keys(provokedBy).sort()).toEqual([...codes].sort())
  })

  it.each(codes)("%s: the named test exists and asks for the code", (code) => {
    const { file, test } = provokedBy[code]
    const source = fs.readFileSync(path.join(testRoot, file), "utf8")
    expect(source, `${file} has no test "${test}"`).toMatch(new RegExp(`\\bit\\(\\s*["'\`]${escape(test)}["'\`]`))
    expect(source, `${file} never names ${code}`).toContain(`"${code}"`)
    expect(source, `${file} never expects the status of ${code}`).toContain(String(ErrorCatalogue[code][0]))
  })
})
