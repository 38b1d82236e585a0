import type { ParsedMail } from "mailparser"
import { expect } from "vitest"
import type { TestNode } from "../support/Node.js"
import { type Api, content, onNode, postOf } from "./HandOverDesk.js"

const addresses = (field: ParsedMail["to"]) =>
  (Array.isArray(field) ? field : field === undefined ? [] : [field])
    .flatMap((group) => group.value.map((a) => a.address ?? ""))
    .sort()

/**
 * What a hand-over email of one post must show its reader, whether it came over SMTP or from the outbox (parsed with
 * `keepCidLinks`): who it is for, both bodies with the title, three captions, hashtags, a working clip link and the
 * receipt link, and the clip's still inline in the HTML. Answers the post's id.
 */
export const expectHandOverEmail = async (
  mail: ParsedMail,
  at: { readonly node: TestNode; readonly api: Api; readonly recipients: ReadonlyArray<string> }
) => {
  const { metaData } = content
  expect(addresses(mail.to)).toEqual([...at.recipients].sort())
  expect(mail.subject).toContain(metaData.title)
  const text = mail.text ?? ""
  const html = typeof mail.html === "string" ? mail.html : ""
  expect(html).not.toBe("")
  for (
    const fact of [
      metaData.title,
      metaData.captionShort,
      metaData.captionMedium,
      metaData.captionLong,
      "#gold #markets"
    ]
  ) {
    expect(text, fact).toContain(fact)
    expect(html, fact).toContain(fact)
  }

  // The still: a JPEG attached inline and shown by the HTML through its content id.
  const stills = mail.attachments.filter((a) => a.contentType === "image/jpeg")
  expect(stills).toHaveLength(1)
  const still = stills[0]!
  expect(still.contentDisposition).toBe("inline")
  expect(still.cid).toBeTruthy()
  expect(html).toContain(`src="cid:${still.cid}"`)
  expect([...still.content.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
  expect(still.size).toBeGreaterThan(1_000)

  // The clip link: in both bodies, signed, and it downloads the post's video.
  const clipUrl = /Clip: (\S+)/.exec(text)?.[1]
  expect(clipUrl, text).toBeDefined()
  expect(html).toContain(`href="${clipUrl!.replaceAll("&", "&amp;")}"`)
  const receiptUrl = /Tell us where: (\S+)/.exec(text)?.[1]
  expect(receiptUrl, text).toMatch(/\/v1\/receipts\/[0-9A-Z]{26}\?exp=\d+&sig=/)
  const postId = new URL(receiptUrl!).pathname.split("/").pop()!
  const post = await postOf(at.api, postId)
  expect(post, postId).toBeDefined()
  expect(new URL(clipUrl!).pathname).toBe(`/v1/assets/${post!.assets[0].assetId}/download`)
  const video = await fetch(onNode(at.node, clipUrl!))
  expect(video.status).toBe(200)
  expect(video.headers.get("content-type")).toMatch(/^video\/mp4/)
  expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(1_000)
  return postId
}
