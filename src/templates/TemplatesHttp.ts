import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { inWorkspace } from "../domain/Principal.js"
import { Templates } from "./Templates.js"
import { TemplateSync } from "./TemplateSync.js"

export const TemplatesHttpLive = HttpApiBuilder.group(ClipwrightApi, "templates", (handlers) =>
  Effect.gen(function*() {
    const templates = yield* Templates
    const sync = yield* TemplateSync
    return handlers
      .handle("list", () =>
        inWorkspace((workspaceId) =>
          Effect.flatMap(templates.list(), (answer) =>
            Effect.map(sync.overlay(workspaceId, answer.templates), (views) => ({ ...answer, templates: views })))
        ))
      .handle("sync", () =>
        inWorkspace(sync.sync))
      .handle("reference", ({ path }) =>
        templates.reference(path.templateId))
      .handle("shelf", () => templates.shelf())
      .handle("describe", ({ path, urlParams }) => templates.describe(path.templateId, urlParams))
  }))
