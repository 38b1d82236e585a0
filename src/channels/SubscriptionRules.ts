import { Effect, Either } from "effect"
import { detailAt, SchemaValidation } from "../domain/Errors.js"
import { type BuildFields, refusedBuild } from "../templates/BuildRefusal.js"
import { isExactVersion, resolveBuild } from "../templates/TemplateRegistry.js"
import type { Subscription } from "./Subscription.js"
import type { SubscriptionRecord } from "./SubscriptionRecord.js"

export interface Pins {
  readonly templateVariant: string | null
  readonly templateVersion: string | null
}

/** The template is the stream's or the feed's, not a field of the subscription: only the pins are pointed at. */
const pinFields: BuildFields = { variant: "templateVariant", version: "templateVersion" }

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
      `templateVersion must be a full major.minor.patch (or latest or null for the newest build), not "${pins.templateVersion}".`,
      "pattern"
    )
  }
  const resolved = resolveBuild(templateId, {
    variant: pins.templateVariant ?? inputVariant,
    version: pins.templateVersion ?? undefined
  })
  return Either.isRight(resolved) ? Effect.void : Effect.fail(refusedBuild(resolved.left, pinFields))
}

export const toSubscription = (row: SubscriptionRecord): Subscription => ({
  id: row.id,
  kind: row.kind,
  sourceSlug: row.sourceSlug,
  formatSlug: row.formatSlug,
  streamId: row.streamId,
  queueId: row.queueId,
  queueName: row.queueName,
  feedId: row.feedId,
  templateId: row.templateId,
  templateVariant: row.templateVariant,
  templateVersion: row.templateVersion,
  enabled: row.enabled
})
