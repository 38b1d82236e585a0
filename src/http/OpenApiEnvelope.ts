import { codeByTag, ErrorCatalogue } from "../domain/Errors.js"

const envelope = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["type", "code", "message", "requestId", "details"],
      properties: {
        type: { type: "string", description: "`{PUBLIC_BASE_URL}/errors/<code>`; a human-readable page." },
        code: { type: "string", enum: Object.keys(ErrorCatalogue) },
        message: { type: "string" },
        requestId: { type: "string", description: "ULID; the same as the `x-request-id` response header." },
        details: {
          type: "array",
          items: {
            type: "object",
            required: ["path", "message"],
            properties: {
              path: { type: "string", description: "RFC 6901 JSON Pointer into the request body; empty for the whole." },
              message: { type: "string" },
              rule: { type: "string" },
              expected: { type: "string" },
              received: { type: "string" }
            }
          }
        },
        retryAfterSeconds: { type: "number", description: "On rate_limited and upstream_unavailable." }
      }
    }
  }
}

type Spec = Record<string, any>

/** Error responses are rendered as the spec's envelope at run time; the document says so too. */
export const documentEnvelope = (spec: Spec): Spec => {
  for (const operations of Object.values<Spec>(spec["paths"] ?? {})) {
    for (const operation of Object.values<Spec>(operations)) {
      for (const [status, response] of Object.entries<Spec>(operation?.["responses"] ?? {})) {
        if (Number(status) < 400 || response["content"] === undefined) continue
        const codes = [...JSON.stringify(response["content"]).matchAll(/"enum":\["([A-Za-z]+)"\]/g)]
          .flatMap((m) => codeByTag[m[1] ?? ""] ?? [])
        response["description"] = codes.length > 0 ? `Error: ${[...new Set(codes)].join(", ")}` : "Error"
        response["content"] = { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } }
      }
    }
  }
  spec["components"] = { ...spec["components"], schemas: { ...spec["components"]?.["schemas"], ErrorEnvelope: envelope } }
  return spec
}
