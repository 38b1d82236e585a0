import { codeByTag, ErrorCatalogue } from "../domain/Errors.js"
import { type Requirement, requirementFor } from "../domain/Permissions.js"

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
              path: {
                type: "string",
                description: "RFC 6901 JSON Pointer into the request body; empty for the whole."
              },
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
  spec["components"] = {
    ...spec["components"],
    schemas: { ...spec["components"]?.["schemas"], ErrorEnvelope: envelope }
  }
  return dropUnusedSchemas(mergeTags(documentPermissions(spec)))
}

const permissionText = (requirement: Requirement): string => {
  switch (requirement._tag) {
    case "AnyKey":
      return "Any valid key."
    case "OwnerOnly":
      return "A signed-in owner only: every API key is refused with 403, whatever its permissions."
    case "Platform":
      return "A platform credential (`ingest:shipped`)."
    case "Permission":
      return `Needs \`${requirement.permission}\`${requirement.public ? "; also served without a key" : ""}.`
  }
}

/**
 * Each bearer-secured `/v1` operation states the permission it needs, from the table the security middleware checks
 * (`x-permission`, or `x-owner-session-only`, for tools; a line of the description for readers), so the reference cannot drift from the checks.
 */
const documentPermissions = (spec: Spec): Spec => {
  for (const [path, operations] of Object.entries<Spec>(spec["paths"] ?? {})) {
    if (!path.startsWith("/v1/")) continue
    for (const [method, operation] of Object.entries<Spec>(operations)) {
      if (!Array.isArray(operation?.["security"]) || operation["security"].length === 0) continue
      const requirement = requirementFor(method.toUpperCase(), path)
      if (requirement._tag === "Permission") operation["x-permission"] = requirement.permission
      // Tools (and docs/api.md's examples) learn from it that only the owner's session cookie is let through.
      if (requirement._tag === "OwnerOnly") operation["x-owner-session-only"] = true
      const line = `**Permission:** ${permissionText(requirement)}`
      operation["description"] = operation["description"] === undefined
        ? line
        : `${operation["description"]}\n\n${line}`
    }
  }
  return spec
}

/** Several groups may share a title (one section in /docs): one tag per title, their distinct descriptions joined. */
const mergeTags = (spec: Spec): Spec => {
  const byName = new Map<string, Spec>()
  for (const tag of spec["tags"] ?? []) {
    const seen = byName.get(tag.name)
    if (seen === undefined) byName.set(tag.name, { ...tag })
    else if (tag.description !== undefined && !String(seen.description ?? "").includes(tag.description)) {
      seen.description = seen.description === undefined ? tag.description : `${seen.description}\n\n${tag.description}`
    }
  }
  spec["tags"] = [...byName.values()]
  return spec
}

const refsIn = (value: unknown): Array<string> =>
  [...JSON.stringify(value).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] ?? "")

/** Schemas only the replaced error bodies used (the decode error, its issues) would show in /docs as unused models. */
const dropUnusedSchemas = (spec: Spec): Spec => {
  const schemas: Spec = spec["components"]?.["schemas"] ?? {}
  const used = new Set(refsIn({ ...spec, components: { ...spec["components"], schemas: {} } }))
  for (let next = [...used]; next.length > 0;) {
    next = next.flatMap((name) => refsIn(schemas[name] ?? {})).filter((name) => !used.has(name))
    next.forEach((name) => used.add(name))
  }
  spec["components"]["schemas"] = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)))
  return spec
}
