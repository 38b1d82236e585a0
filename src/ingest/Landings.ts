import { Effect, Either } from "effect"
import type { ChannelMatch } from "../channels/MatchingChannels.js"
import { detailAt, IdempotencyConflict } from "../domain/Errors.js"
import type { Origin } from "../domain/Origin.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { newUlid } from "../domain/Ulid.js"
import { statusSteps } from "../posts/JobStatusSteps.js"
import type { JobRecord } from "../publishing/states/JobRecord.js"
import { resolveBuild } from "../templates/TemplateRegistry.js"
import type { Matched, WouldMatch } from "./IngestAnswers.js"
import type { IngestEventRecord } from "./IngestEventRecord.js"
import type { Landed } from "./IngestLedger.js"

/** The version a subscription draws today: its pin, or the newest build of its variant. */
const versionFor = (templateId: string, match: ChannelMatch): string | null =>
  Either.match(
    resolveBuild(templateId, {
      variant: match.templateVariant ?? undefined,
      version: match.templateVersion ?? undefined
    }),
    { onLeft: () => match.templateVersion, onRight: (resolved) => resolved.build.version }
  )

export const wouldMatch = (match: ChannelMatch): WouldMatch => ({
  channelId: match.channelId,
  channelName: match.channelName,
  subscriptionId: match.subscriptionId,
  outputs: [{ ratio: match.ratio, locale: match.locale }]
})

export interface JobPlan {
  readonly jobs: ReadonlyArray<typeof JobRecord.insert.Type>
  readonly matched: ReadonlyArray<Matched>
}

/** One job per channel reached, each the post group of its channel's posts of this event. */
export const planJobs = (
  workspaceId: WorkspaceId,
  ingestEventId: string,
  origin: Origin,
  templateId: string,
  matches: ReadonlyArray<ChannelMatch>,
  scheduledFor: Date | null
): JobPlan => {
  const jobs = matches.map((match) => ({
    id: newUlid(),
    workspaceId,
    ingestEventId,
    channelId: match.channelId,
    subscriptionId: match.subscriptionId,
    origin,
    status: statusSteps.land.to,
    templateId,
    templateVariant: match.templateVariant,
    templateVersion: match.templateVersion,
    ratio: match.ratio,
    locale: match.locale,
    scheduledFor
  }))
  const matched = matches.map((match, i) => ({
    ...wouldMatch(match),
    templateId,
    templateVersion: versionFor(templateId, match),
    postGroupId: jobs[i]!.id
  }))
  return { jobs, matched }
}

const member = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined

/** What the log prints as the post's title: the document's title, else its headline. */
export const postTitleOf = (document: unknown): string | null => {
  const title = member(member(document, "metaData"), "title")
  const headline = member(member(document, "clipData"), "headline")
  return typeof title === "string" ? title : typeof headline === "string" ? headline : null
}

/**
 * What became of a landing: it landed now, or an earlier event with that eventId stands. The earlier one with this
 * very body is a duplicate (answered with the original row); with another body it is a 409.
 */
export const settle = (landed: Landed, hash: string, eventId: string) => {
  if (landed._tag === "Landed") return Effect.succeed(undefined)
  if (landed.row.bodyHash === hash) return Effect.succeed(landed.row as IngestEventRecord)
  return Effect.fail(
    new IdempotencyConflict({
      message: `eventId ${eventId} was already used for another event (${landed.row.id}) with a different body.`,
      details: [detailAt(["eventId"], "already used with a different body")]
    })
  )
}
