import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { Templates } from "./Templates.js"

export const TemplatesHttpLive = HttpApiBuilder.group(ClipwrightApi, "templates", (handlers) =>
  Effect.gen(function*() {
    const templates = yield* Templates
    return handlers
      .handle("list", () => templates.list())
      .handle("reference", ({ path }) => templates.reference(path.templateId))
      .handle("shelf", () => templates.shelf())
      .handle("describe", ({ path, urlParams }) => templates.describe(path.templateId, urlParams))
  }))
