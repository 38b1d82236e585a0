import { Effect } from "effect"
import { Conflict, detailAt, SchemaValidation } from "../domain/Errors.js"
import { isLocale } from "../templates/Locales.js"
import type { UpdateChannelBody } from "./Channel.js"
import type { ChannelConfig } from "./ChannelRecord.js"
import { type Posting, type Surface, surfaceOf, switchNames } from "./Surfaces.js"

const invalid = (path: ReadonlyArray<string>, message: string, rule: string) =>
  Effect.fail(new SchemaValidation({ message, details: [detailAt(path, message, rule)] }))

/** The surface's ratio: fixed where it offers one (the body's is ignored), else the choice, which must be offered. */
const ratioFor = (surface: Surface, asked: string | undefined, stored: string | undefined) => {
  if (surface.ratios.length === 1) return Effect.succeed(surface.ratios[0]!)
  const choices = surface.ratios.join(", ")
  const ratio = asked ?? (stored !== undefined && surface.ratios.includes(stored) ? stored : undefined)
  if (ratio === undefined) {
    const message = `The surface ${surface.surface} offers several ratios; choose one of ${choices}.`
    return invalid(["ratio"], message, "required")
  }
  if (!surface.ratios.includes(ratio)) {
    return invalid(["ratio"], `The surface ${surface.surface} offers ${choices}, not ${ratio}.`, "enum")
  }
  return Effect.succeed(ratio)
}

/** The surface's switches, each from the body, else as stored, else the surface's default; others refused. */
const postingFor = (surface: Surface, asked: Posting | undefined, stored: Posting) => {
  const body = asked ?? {}
  for (const name of switchNames) {
    if (body[name] !== undefined && !(name in surface.posting)) {
      return invalid(["posting", name], `The surface ${surface.surface} has no ${name} switch.`, "surface")
    }
  }
  const posting: Record<string, boolean> = {}
  for (const [name, byDefault] of Object.entries(surface.posting) as Array<[keyof Posting, boolean]>) {
    posting[name] = body[name] ?? stored[name] ?? byDefault
  }
  return Effect.succeed(posting)
}

/**
 * Lays a create or change over what is stored (create: over nothing) and checks the result whole: the surface's
 * ratio and switches, the locale, the delivery switches. The brand and name are the caller's to check.
 */
export const resolveConfig = (
  stored: ChannelConfig | undefined,
  body: UpdateChannelBody,
  context: { readonly brandId: string; readonly name: string; readonly hasWebhook: boolean }
) =>
  Effect.gen(function*() {
    const surface = surfaceOf(body.surface ?? stored?.surface ?? "")!
    const ratio = yield* ratioFor(surface, body.ratio, stored?.ratio)
    const locale = body.locale ?? stored?.locale ?? "en"
    if (!isLocale(locale)) {
      yield* invalid(["locale"], `${locale} is not a locale: an ISO 639-1 code, or zh-CN, zh-TW, pt-BR.`, "enum")
    }
    const posting = yield* postingFor(surface, body.posting, stored?.posting ?? {})
    const deliverByEmail = body.deliverByEmail ?? stored?.deliverByEmail ?? true
    const deliverByWebhook = body.deliverByWebhook ?? stored?.deliverByWebhook ?? false
    if (!deliverByEmail && !deliverByWebhook) {
      const sent = body.deliverByEmail === false ? "deliverByEmail" : "deliverByWebhook"
      yield* invalid([sent], "At least one of deliverByEmail and deliverByWebhook must be true.", "oneRequired")
    }
    // Only a switch turned on now needs the address; a channel that already delivers by webhook keeps doing so.
    if (body.deliverByWebhook === true && !context.hasWebhook) {
      return yield* new Conflict({
        message: "The workspace has no webhook yet; set its webhook address before delivering by webhook.",
        details: [detailAt(["deliverByWebhook"], "no webhook yet", "webhook")]
      })
    }
    const config: ChannelConfig = {
      name: context.name,
      surface: surface.surface,
      ratio,
      locale,
      brandId: context.brandId,
      enabled: body.enabled ?? stored?.enabled ?? true,
      approval: body.approval ?? stored?.approval ?? "NONE",
      deliverByEmail,
      deliverByWebhook,
      posting,
      syndicates: body.syndicates ?? stored?.syndicates ?? false,
      syndicationToken: body.syndicationToken !== undefined ? body.syndicationToken : stored?.syndicationToken ?? null
    }
    return config
  })

export const nameInUse = (name: string) =>
  new Conflict({
    message: `A channel called "${name}" already exists in this workspace; choose another name.`,
    details: [detailAt(["name"], "name in use", "unique")]
  })

/** The first `New channel N` (N from 1) that no live channel of the workspace is called. */
export const firstFreeName = (taken: Iterable<string>): string => {
  const names = new Set(taken)
  let n = 1
  while (names.has(`New channel ${n}`)) n++
  return `New channel ${n}`
}
