import { describe, expect, it } from "vitest"
import { content, openDesk, until } from "../delivery/HandOverDesk.js"
import { query } from "../support/Database.js"
import { useNodes } from "../support/Rig.js"
import type { SinkMessage } from "../support/SmtpSink.js"

const BASE_URL = "https://clips.example.test"

// Two nodes over one database, both sweeping: the 5-minute window must hold across them.
const { db, nodes, sink } = useNodes({
  label: "approval_requests",
  count: 2,
  env: { PUBLIC_BASE_URL: BASE_URL, ALLOW_PRIVATE_URLS: "true" },
  smtp: true
})

const requests = () => sink.messages.filter((m) => m.subject?.includes("for your approval") === true)
const approvalsOf = (workspaceId: string) =>
  query<{ id: string; announced_at: Date | null; channel_id: string }>(
    db.url,
    "SELECT id, announced_at, channel_id FROM approvals WHERE workspace_id = $1 ORDER BY requested_at, id",
    [workspaceId]
  )
const linksIn = (message: SinkMessage) =>
  [...(message.text ?? "").matchAll(/https:\/\/\S+\/console\/approvals\/\w+/g)].map((m) => m[0])

describe("approval requests by email", () => {
  it(
    "asks the owner and Operations once per 5 minutes per workspace, listing each waiting post, across two nodes",
    async () => {
      const desk = await openDesk(nodes[0]!, {
        name: "Review desk",
        members: [{ email: "ops@example.test", role: "operations" }, { email: "viewer@example.test", role: "member" }]
      })
      await desk.channel({ name: "Reviewed", surface: "tiktok", approval: "PER_POST" })
      await desk.send()
      const [first] = await until("the first request", async () => requests(), (found) => found.length === 1, 180_000)
      expect(first!.envelope.to.slice().sort()).toEqual(["ops@example.test", "owner@example.test"])
      expect(first!.subject).toBe("1 post waits for your approval in Review desk")
      const [waiting] = await approvalsOf(desk.accountId)
      expect(waiting!.announced_at).toBeInstanceOf(Date)
      expect(linksIn(first!)).toEqual([`${BASE_URL}/console/approvals/${waiting!.id}`])
      expect(first!.text).toContain(content.metaData.title)
      expect(first!.text).toContain("Channel: Reviewed")
      expect(first!.html).toContain(`href="${BASE_URL}/console/approvals/${waiting!.id}"`)

      // A second post starts waiting inside the window: nobody is asked again, on either node, for now.
      await desk.send({ ...content, metaData: { ...content.metaData, title: "Silver <slips>" } })
      const both = await until(
        "the second approval",
        () => approvalsOf(desk.accountId),
        (rows) => rows.length === 2,
        180_000
      )
      await new Promise((resolve) => setTimeout(resolve, 12_000))
      expect(requests()).toHaveLength(1)
      expect((await approvalsOf(desk.accountId))[1]!.announced_at).toBeNull()
      expect(
        (await query(db.url, "SELECT count(*)::int AS n FROM approval_request_mails WHERE workspace_id = $1", [
          desk.accountId
        ]))[0]!.n
      )
        .toBe(1)

      // The window ends (five minutes passed): one email, listing only the post nobody was told about.
      await query(
        db.url,
        "UPDATE approval_request_mails SET sent_at = now() - interval '301 seconds' WHERE workspace_id = $1",
        [desk.accountId]
      )
      const [, second] = await until(
        "the second request",
        async () => requests(),
        (found) => found.length === 2,
        30_000
      )
      expect(linksIn(second!)).toEqual([`${BASE_URL}/console/approvals/${both[1]!.id}`])
      expect(second!.text).toContain("Silver <slips>")
      expect(second!.html).toContain("Silver &lt;slips&gt;")
      await new Promise((resolve) => setTimeout(resolve, 11_000))
      expect(requests()).toHaveLength(2)
    },
    420_000
  )

  it("records who decided and the note, in the decision's answer, the approvals log and the job", async () => {
    const desk = await openDesk(nodes[1]!, { name: "Deciders" })
    const channelId = await desk.channel({ name: "Checked", surface: "tiktok", approval: "PER_POST" })
    const sent = await desk.send()
    const [approval] = await until(
      "the approval",
      () => approvalsOf(desk.accountId),
      (rows) => rows.length === 1,
      180_000
    )
    const [key] = await query<{ id: string }>(db.url, "SELECT id FROM api_keys WHERE workspace_id = $1", [
      desk.accountId
    ])
    const actor = `apikey:${key!.id}`

    const pending = await desk.api.get(`/v1/approvals?state=PENDING&channelId=${channelId}`)
    expect(pending.body.approvals[0]).toMatchObject({ id: approval!.id, decidedBy: null, note: null, decidedAt: null })
    expect(pending.body.approvals[0].posts[0]).toMatchObject({
      title: content.metaData.title,
      surfaceLabel: expect.any(String),
      hashtags: content.metaData.hashtags,
      scheduledFor: expect.any(String)
    })
    expect((await desk.api.get("/v1/approvals?channelId=01JAAAAAAAAAAAAAAAAAAAAAAA")).body).toMatchObject({
      total: 0,
      all: 1
    })

    const decided = await desk.api.post(`/v1/approvals/${approval!.id}`, { state: "REJECTED", note: "Wrong figure" })
    expect(decided.status, decided.text).toBe(200)
    expect(decided.body).toEqual({
      postIds: [expect.any(String)],
      state: "REJECTED",
      approvalId: approval!.id,
      note: "Wrong figure",
      decidedBy: actor,
      decidedAt: expect.any(String)
    })
    const log = await desk.api.get("/v1/approvals?state=REJECTED")
    expect(log.body.approvals[0]).toMatchObject({
      id: approval!.id,
      state: "REJECTED",
      decidedBy: actor,
      note: "Wrong figure"
    })
    const jobs = await desk.api.get(`/v1/jobs?channelId=${channelId}`)
    expect(jobs.body.jobs.find((j: { id: string }) => j.id === sent.matched[0]!.postGroupId).approval)
      .toMatchObject({ required: true, state: "REJECTED", login: actor })
  }, 300_000)
})
