import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { TemplateClearance } from "./TemplateClearance.js"

export const AdminTemplatesHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "adminTemplates",
  (handlers) =>
    Effect.map(
      TemplateClearance,
      (clearance) =>
        handlers.handle("setTemplates", ({ path, payload }) => clearance.set(path.accountId, payload.templateIds))
    )
)
