import { Effect, Either } from "effect"
import { detailAt, SchemaValidation, UnknownTemplate } from "../domain/Errors.js"
import { isExactVersion, resolveBuild } from "../templates/TemplateRegistry.js"
import type { Subscription } from "./Subscription.js"
import type { SubscriptionRecord } from "./SubscriptionRecord.js"

export interface Pins {
  readonly templateVariant: string | null
  readonly templateVersion: string | null
}

const refuse = (path: string, message: string, rule: string) =>
  Effect.fail(new SchemaValidation({ message, details: [detailAt([path], message, rule)] }))

/**
 * The pins a channel may hold on an input: a QUEUE subscription pins nothing (each post chooses); otherwise the
 * variant must be one of the template's and the version a full `major.minor.patch` with a build of that variant.
 * `inputVariant` is what null means: the feed's variant, or the template's first for a stream.
 */
export const checkPins = (
  kind: Subscription["kind"],
  templateId: string | null,
  inputVariant: string | undefined,
  pins: Pins
) => {
  if (kind === "QUEUE" || templateId === null) {
    if (pins.templateVariant !== null) return refuse("templateVariant", "A QUEUE subscription pins nothing.", "absent")
    if (pins.templateVersion !== null) return refuse("templateVersion", "A QUEUE subscription pins nothing.", "absent")
    return Effect.void
  }
  if (pins.templateVersion !== null && !isExactVersion(pins.templateVersion)) {
    return refuse(
      "templateVersion",
      `templateVersion must be a full major.minor.patch (or null for the newest build), not "${pins.templateVersion}".`,
      "pattern"
    )
  }
  const resolved = resolveBuild(templateId, {
    variant: pins.templateVariant ?? inputVariant,
    version: pins.templateVersion ?? undefined
  })
  if (Either.isRight(resolved)) return Effect.void
  const error = resolved.left
  switch (error._tag) {
    case "UnknownVariant":
      return Effect.fail(
        new UnknownTemplate({
          message: `Template ${templateId} has no variant "${error.variant}".`,
          details: [detailAt(["templateVariant"], "no such variant")]
        })
      )
    case "UnknownVersion":
      return Effect.fail(
        new UnknownTemplate({
          message: `Template ${templateId} has no build ${error.version} of variant ${error.variant}.`,
          details: [detailAt(["templateVersion"], "no such build")]
        })
      )
    default:
      return Effect.fail(new UnknownTemplate({ message: `Template ${templateId} is not offered.` }))
  }
}

export const toSubscription = (row: SubscriptionRecord): Subscription => ({
  id: row.id,
  kind: row.kind,
  sourceSlug: row.sourceSlug,
  formatSlug: row.formatSlug,
  streamId: row.streamId,
  queueId: row.queueId,
  // Post lists arrive with a later issue; no QUEUE subscription can exist before them.
  queueName: null,
  feedId: row.feedId,
  templateId: row.templateId,
  templateVariant: row.templateVariant,
  templateVersion: row.templateVersion,
  enabled: row.enabled
})
