import * as net from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { admin, client } from "../support/Client.js"
import { startCluster, type TestCluster } from "../support/Cluster.js"
import { createTestDatabase, query, type TestDatabase } from "../support/Database.js"
import { startNode, type TestNode } from "../support/Node.js"
import { MARKET } from "../support/Routes.js"

/** Whether a TCP connection to host:port is accepted (the runner port speaks no HTTP: a connect is the question). */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

let cluster: TestCluster | undefined
let db: TestDatabase | undefined
let single: TestNode | undefined

afterAll(async () => {
  await single?.stop()
  await db?.drop()
  await cluster?.stop()
})

describe("the cluster runner port listens on RUNNER_LISTEN_HOST only", () => {
  it("bound to 127.0.0.2 while RUNNER_HOST says 127.0.0.1: 127.0.0.1 refuses the runner port", async () => {
    db = await createTestDatabase("runner_listen_single")
    single = await startNode({
      databaseUrl: db.url,
      env: { RUNNER_HOST: "127.0.0.1", RUNNER_LISTEN_HOST: "127.0.0.2" }
    })
    expect(await accepts("127.0.0.2", single.runnerPort)).toBe(true)
    expect(await accepts("127.0.0.1", single.runnerPort)).toBe(false)
    expect(await accepts("127.0.0.1", Number(new URL(single.url).port))).toBe(true)
  }, 120_000)

  it("two nodes listening on 127.0.0.2 still share work across their runners", async () => {
    cluster = await startCluster("runner_listen", {
      nodes: 2,
      env: { RUNNER_HOST: "127.0.0.2", RUNNER_LISTEN_HOST: "127.0.0.2" }
    })
    const [a, b] = cluster.nodes as [TestNode, TestNode]
    for (const node of [a, b]) {
      expect(await accepts("127.0.0.2", node.runnerPort)).toBe(true)
      expect(await accepts("127.0.0.1", node.runnerPort)).toBe(false)
    }
    const runners = await query<{ address: string }>(
      cluster.db.url,
      "SELECT address FROM cluster_runners ORDER BY address"
    )
    expect(runners.map((r) => r.address).sort()).toEqual(
      [`127.0.0.2:${a.runnerPort}`, `127.0.0.2:${b.runnerPort}`].sort()
    )

    const { accountId } = await admin(a).workspace("Listening")
    const { apiKey } = await admin(a).key(accountId, ["streams:read", "streams:write"])
    // Stream entities land on both runners' shards: created through one node, renamed through the other.
    const ids: Array<string> = []
    for (let i = 0; i < 8; i++) {
      const made = await client(a, apiKey).post("/v1/streams", { name: `S${i}`, templateId: MARKET })
      expect(made.status, made.text).toBe(201)
      ids.push(made.body.stream.id)
    }
    for (const id of ids) {
      const renamed = await client(b, apiKey).post(`/v1/streams/${id}/update`, { name: `renamed-${id}` })
      expect(renamed.status, renamed.text).toBe(200)
    }
    const names = await query<{ name: string }>(cluster.db.url, "SELECT name FROM streams WHERE id = ANY($1)", [ids])
    expect(names.map((n) => n.name).sort()).toEqual(ids.map((id) => `renamed-${id}`).sort())
  }, 240_000)
})
