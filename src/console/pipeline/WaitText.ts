import type { PipelineEntry } from "../../publishing/pipeline/PipelineAnswers.js"
import type { InFlightEntry } from "../../publishing/pipeline/PipelineInFlight.js"

/** An instant to the second, as the console's logs print it. */
export const secondsText = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`

/** "45 s", "3 min 5 s", "2 h 4 min", "3 d 2 h": how long a job has been where it is. */
export const durationText = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`
}

type Waiting =
  & Pick<PipelineEntry, "state" | "renderPosition" | "renderWait">
  & Partial<
    Pick<InFlightEntry, "scheduledFor" | "nextAttemptAt">
  >

/** Why a job is where it is, in a sentence: its render's place in the queue, a person, a time or a retry. */
export const waitText = (job: Waiting, now: number): string => {
  switch (job.state) {
    case "ACCEPTED":
      return "Received; its render is about to be asked for."
    case "AWAITING_RENDERING":
      return job.renderPosition === null
        ? "Waiting for its render to start."
        : `Its render is number ${job.renderPosition} in the queue: ${job.renderWait?.reason ?? "waiting"}.`
    case "RENDERING":
      return "Its video is being drawn."
    case "DOWNLOADING":
      return "Its video is being stored."
    case "AWAITING_APPROVAL":
      return "Waiting for approval by the owner or Operations."
    case "SCHEDULED": {
      const due = job.scheduledFor ?? null
      return due !== null && Date.parse(due) > now
        ? `Scheduled: goes out at ${secondsText(due)}.`
        : "Due now: about to be handed over."
    }
    case "PUBLISHING": {
      const next = job.nextAttemptAt ?? null
      return next === null ? "Being handed over." : `Hand-over failed; the next attempt is at ${secondsText(next)}.`
    }
    default:
      return ""
  }
}
