import pg from "pg"
import { call } from "./Common.js"

const MARKET = "tpl_3a7c91e04b5d"

/** Enough allowance that neither the pipeline nor the yardstick is ever refused for it. */
const RENDER_ALLOWANCE = 1000

export interface BenchWorkspace {
  readonly workspaceId: string
  readonly key: string
  readonly brandId: string
}

export interface PipelineTarget extends BenchWorkspace {
  readonly streamId: string
  readonly channelIds: ReadonlyArray<string>
}

type Node = { readonly url: string; readonly adminToken: string }

/** A workspace with a high render allowance, a key that may do everything, and one brand. */
export const benchWorkspace = async (node: Node, name: string): Promise<BenchWorkspace> => {
  const admin = node.adminToken
  const workspace = (await call(`${node.url}/admin/workspaces`, "POST", admin, { name })).json
  const workspaceId: string = workspace.accountId
  await call(`${node.url}/admin/workspaces/${workspaceId}/limits`, "PUT", admin, { renderAllowance: RENDER_ALLOWANCE })
  const key: string = (await call(`${node.url}/admin/workspaces/${workspaceId}/keys`, "POST", admin, {
    scopes: ["*"],
    name
  })).json.apiKey
  const brandId: string = (await call(`${node.url}/v1/brands`, "POST", key, { name: "House" })).json.brand.id
  return { workspaceId, key, brandId }
}

/**
 * Two channels that never share a video (a 9x16 and a 1x1 one, both English), each subscribed to one Market move
 * stream with the build variant pinned: every event asks for two distinct renders.
 */
export const preparePipeline = async (node: Node, variant: string): Promise<PipelineTarget> => {
  const workspace = await benchWorkspace(node, "Pipeline bench")
  const { key } = workspace
  const { stream } =
    (await call(`${node.url}/v1/streams`, "POST", key, { name: "Bench prices", templateId: MARKET })).json
  const channelIds: Array<string> = []
  for (
    const body of [
      { name: "Bench shorts", surface: "youtube-shorts", locale: "en" },
      { name: "Bench telegram", surface: "telegram", ratio: "1x1", locale: "en" }
    ]
  ) {
    const { channel } = (await call(`${node.url}/v1/channels`, "POST", key, body)).json
    await call(`${node.url}/v1/channels/${channel.id}/subscriptions`, "POST", key, {
      kind: "STREAM",
      streamId: stream.id,
      templateVariant: variant
    })
    channelIds.push(channel.id)
  }
  return { ...workspace, streamId: stream.id, channelIds }
}

/** Event `i`'s document: its own headline and title, so no two events draw the same video. */
export const eventContent = (i: number) => ({
  clipData: {
    headline: `Gold climbs for a ${i + 1}. session`,
    subline: `Bullion tops $${2400 + i} as the dollar slides`
  },
  metaData: {
    title: `Gold, session ${i + 1}`,
    captionShort: "Gold climbs.",
    hashtags: ["gold", "markets"]
  }
})

/** One connection to the bench's database, for polling and the figures only the tables hold. */
export const openDatabase = async (url: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return {
    rows: async <Row>(text: string, values: Array<unknown> = []) =>
      (await client.query(text, values)).rows as Array<Row>,
    close: () => client.end()
  }
}
export type BenchDatabase = Awaited<ReturnType<typeof openDatabase>>
