import type { client } from "./Client.js"

type Api = ReturnType<typeof client>

export const MARKET = "tpl_3a7c91e04b5d"

/**
 * The compact Market move build's example: a 6 s clip, the quickest real render the registry offers. Its picture
 * (`media://trading-floor.jpg`) is left out: a test workspace's media library does not hold it, and an export naming a
 * missing library file is refused.
 */
export const compactExample = async (api: Api) => {
  const example = (await api.get(`/v1/formats/template/${MARKET}?variant=compact&version=1.0.1`)).body.example as {
    clipData: Record<string, unknown>
  }
  const { images: _images, ...clipData } = example.clipData
  return { ...example, clipData } as Record<string, unknown>
}

export const videoBody = (data: unknown, extra: Record<string, unknown> = {}) => ({
  templateId: MARKET,
  variant: "compact",
  version: "1.0.1",
  ratio: "1x1",
  data,
  ...extra
})

/** Polls an export until it has finished one way or another. */
export const waitForExport = async (api: Api, jobId: string, timeoutMs = 90_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const r = await api.get(`/v1/direct-export/video/${jobId}`)
    if (r.status !== 200) throw new Error(`poll ${jobId}: ${r.status} ${r.text}`)
    if (!["queued", "rendering"].includes(r.body.status)) return r.body
    if (Date.now() > deadline) throw new Error(`export ${jobId} still ${r.body.status}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}
