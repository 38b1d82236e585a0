import { HttpApiSchema, HttpServerResponse } from "@effect/platform"
import { Schema } from "effect"

/**
 * The success of a route that answers a file (PNG zip, MP4 …) rather than JSON: the handler builds the
 * `HttpServerResponse` itself (status, headers, streamed body) and the platform sends it as it is. The OpenAPI
 * document shows the content type with a binary body.
 */
export const FileBody = (contentType: string, description: string) =>
  Schema.declare(HttpServerResponse.isServerResponse, {
    identifier: "FileBody",
    description,
    jsonSchema: { type: "string", format: "binary" }
  }).annotations({ [HttpApiSchema.AnnotationEncoding]: { kind: "Uint8Array", contentType } })
