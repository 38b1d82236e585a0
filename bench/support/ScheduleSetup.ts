import { call } from "./Common.js"
import { benchWorkspace } from "./PipelineSetup.js"

const MARKET = "tpl_3a7c91e04b5d"

type Node = { readonly url: string; readonly adminToken: string }

/** One post list and the key of its workspace. */
export interface BenchList {
  readonly workspaceId: string
  readonly key: string
  readonly queueId: string
}

/**
 * `workspaces` workspaces (each with a brand and a key that may do everything) with `listsPerWorkspace` post lists
 * each. No channel subscribes to them: a package fires into an event with no jobs (NO_MATCH), so what is measured
 * is the firing alone, not renders.
 */
export const prepareLists = async (node: Node, workspaces: number, listsPerWorkspace: number) => {
  const lists: Array<BenchList> = []
  for (let w = 0; w < workspaces; w++) {
    const { key, workspaceId } = await benchWorkspace(node, `Schedule bench ${w + 1}`)
    for (let l = 0; l < listsPerWorkspace; l++) {
      const { queue } = (await call(`${node.url}/v1/queues`, "POST", key, { name: `List ${l + 1}` })).json
      lists.push({ workspaceId, key, queueId: queue.id })
    }
  }
  return lists
}

/** The Market move compact variant's input, as a person would schedule it. */
const data = {
  clipData: { headline: "Gold climbs to a record", subline: "Bullion tops $2,400" },
  metaData: { title: "Gold at a record", captionMedium: "Gold climbed to a record on Tuesday.", hashtags: ["gold"] }
}

export interface Scheduled {
  readonly ids: ReadonlyArray<string>
  readonly ms: number
}

/**
 * Schedules `count` packages through the API, `senders` requests at a time, package `i` on list `i mod lists` at
 * `at(i)`. Throws on any refusal.
 */
export const schedulePackages = async (
  node: Node,
  lists: ReadonlyArray<BenchList>,
  count: number,
  at: (i: number) => Date,
  senders = 32
): Promise<Scheduled> => {
  const started = performance.now()
  const ids: Array<string> = []
  let next = 0
  await Promise.all(Array.from({ length: Math.min(senders, count) }, async () => {
    for (let i = next++; i < count; i = next++) {
      const { key, queueId } = lists[i % lists.length]!
      const { package: made } = (await call(`${node.url}/v1/queues/${queueId}/packages`, "POST", key, {
        title: `Post ${i + 1}`,
        templateId: MARKET,
        templateVariant: "compact",
        scheduledFor: at(i).toISOString(),
        data
      })).json
      ids.push(made.id)
    }
  }))
  return { ids, ms: performance.now() - started }
}
