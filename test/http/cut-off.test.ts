import { HttpServerError, HttpServerResponse } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, FiberId } from "effect"
import { causeToEnvelope } from "../../src/http/Envelope.js"

const bodyOf = (response: HttpServerResponse.HttpServerResponse) => {
  assert.strictEqual(response.body._tag, "Uint8Array")
  return JSON.parse(new TextDecoder().decode((response.body as { body: Uint8Array }).body))
}

describe("a request cut off inside the node", () => {
  // The fault matrix's frozen node: requests whose entity stopped or moved mid-call were interrupted inside the node.
  // The platform turns such a cause into an empty 503 it adds as a defect; the edge logged "Unhandled fault" and
  // answered 500 `internal`, telling the caller the service was broken rather than to send the request again.
  it.effect("is answered 503 upstream_unavailable with a retry hint, as the platform means it", () =>
    Effect.gen(function*() {
      const [, cause] = yield* HttpServerError.causeResponse(Cause.interrupt(FiberId.make(7, 0)))
      const response = yield* causeToEnvelope("https://errors.example/", cause)
      assert.strictEqual(response.status, 503)
      assert.strictEqual(response.headers["retry-after"], "2")
      const body = bodyOf(response)
      assert.strictEqual(body.error.code, "upstream_unavailable")
      assert.strictEqual(body.error.retryAfterSeconds, 2)
    }))

  it.effect("a real fault is still 500 internal, and says nothing of itself", () =>
    Effect.gen(function*() {
      const response = yield* causeToEnvelope("https://errors.example/", Cause.die(new Error("secret at /srv/x.ts:1")))
      assert.strictEqual(response.status, 500)
      const body = bodyOf(response)
      assert.strictEqual(body.error.code, "internal")
      assert.notInclude(JSON.stringify(body), "secret")
    }))
})
