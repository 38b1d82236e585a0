/**
 * A video drawn straight from the template and content, without a stream, channel or post: exported, polled and
 * saved as a file.
 */
import * as path from "node:path"
import { type Api, ok, pollUntil, printChanges, saveTo } from "../support/api.js"
import { shown } from "../support/outbox.js"
import { TEMPLATE_ID } from "./channels.js"

export const exportClip = async (
  api: Api,
  brandId: string,
  outDir: string,
  say: (line: string) => void
): Promise<string> => {
  // An export names the template's version; the template list answers the one in force.
  const { templates } = await ok(api.GET("/v1/templates"))
  const version = templates.find((t) => t.templateId === TEMPLATE_ID)?.version
  if (version === undefined) throw new Error(`the node has no template ${TEMPLATE_ID}`)

  // With a brandId the video wears the brand (colours, fonts, logo); 202 with the job to poll.
  const { jobId } = await ok(api.POST("/v1/direct-export/video", {
    body: {
      templateId: TEMPLATE_ID,
      version,
      ratio: "9x16",
      brandId,
      data: { clipData: { headline: "Gold climbs to a record" } }
    }
  }))
  say(`direct export ${jobId} (template ${TEMPLATE_ID} ${version}, 9x16)`)

  const show = printChanges((line) => say(`  ${line}`))
  const done = await pollUntil("the export", {
    read: () => ok(api.GET("/v1/direct-export/video/{jobId}", { params: { path: { jobId } } })),
    done: (poll) => poll.status !== "queued" && poll.status !== "rendering",
    // `progress` goes from 0 to 1 as the frames are drawn; shown here in quarters.
    onEach: (poll) =>
      show(poll.status === "rendering" ? `rendering ${Math.floor(poll.progress * 4) * 25}%` : poll.status),
    timeoutMs: 120_000
  })
  if (done.status !== "succeeded") throw new Error(`the export ended ${done.status}: ${done.error ?? ""}`)

  // The file lasts two hours after the export finished; `POST …/link` makes a link that needs no key.
  const file = path.join(outDir, "clip.mp4")
  const download = { params: { path: { jobId } }, parseAs: "stream" } as const
  const bytes = await saveTo(api.GET("/v1/direct-export/video/{jobId}/download", download), file)
  say(`saved ${shown(file)} (${Math.round(bytes / 1024)} KB)`)
  return file
}
