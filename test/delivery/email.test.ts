import { SqlClient } from "@effect/sql"
import { assert, describe, layer } from "@effect/vitest"
import { createCanvas, loadImage } from "@napi-rs/canvas"
import { Effect, Layer, Option } from "effect"
import { simpleParser } from "mailparser"
import * as fs from "node:fs"
import * as path from "node:path"
import { AppConfig } from "../../src/Config.js"
import { ClipStills, type Still } from "../../src/delivery/email/ClipStills.js"
import { composeEmail, type EmailInput, type EmailPost } from "../../src/delivery/email/EmailMessage.js"
import { MailTransport } from "../../src/delivery/email/MailTransport.js"
import type { PostOut } from "../../src/delivery/WebhookData.js"
import type { WorkspaceId } from "../../src/domain/Principal.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { runFfmpeg } from "../../src/drawing/Run.js"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { RenderRepo } from "../../src/renders/RenderRepo.js"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { freePort } from "../support/Node.js"
import { newWorkspace, serviceTestLayer } from "../support/ServiceLayer.js"
import { smtpSink } from "../support/SmtpSink.js"

const EmailTest = ClipStills.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(Identity.layer, RenderRepo.layer, LocalBlobStorage.layer)),
  Layer.provideMerge(IdentityRepo.layer),
  Layer.provideMerge(serviceTestLayer("email"))
)

/** The mail transport over `SMTP_URL`, or writing to the outbox when it is none; the rest as the test node's. */
const transportWith = (smtpUrl: Option.Option<string>) =>
  MailTransport.layer.pipe(
    Layer.provide(Layer.effect(AppConfig, Effect.map(AppConfig, (settings) => ({ ...settings, smtpUrl }))))
  )

const post = (id: string, over: Partial<PostOut> = {}): PostOut => ({
  id,
  postGroupId: `group-${id}`,
  channel: {
    id: `channel-${id}`,
    name: "Markets desk",
    platform: "instagram",
    surface: "reels",
    surfaceLabel: "Instagram Reels",
    posting: { webhook: true, email: true }
  },
  locale: "en",
  ratio: "9x16",
  title: "Fed holds rates <steady> & calm",
  caption: "Rates held.",
  captions: {
    short: "Rates held.",
    medium: "The Fed held rates steady for a third meeting.",
    long: "The Federal Reserve held rates steady for a third meeting, citing cooling inflation and a firm job market."
  },
  hashtags: ["markets", "#rates"],
  scheduledFor: "2025-03-01T14:30:00.000Z",
  origin: "feed",
  postTitle: null,
  assets: [{
    assetId: `clip-${id}`,
    kind: "video",
    mimeType: "video/mp4",
    url: `https://clips.example.com/v1/assets/clip-${id}?exp=1740000000&sig=abc`,
    expiresAt: "2025-03-08T14:30:00.000Z"
  }],
  receipt: { url: `https://clips.example.com/r/${id}?sig=def`, expiresAt: "2025-04-01T00:00:00.000Z" },
  platformPostId: null,
  permalink: null,
  ...over
})

const item = (p: PostOut, still: Still | null): EmailPost => ({ post: p, clipUrl: p.assets[0]?.url ?? null, still })

const emailInput = (posts: ReadonlyArray<EmailPost>, over: Partial<EmailInput> = {}): EmailInput => ({
  deliveryId: newUlid(),
  from: "clipwright@clips.example.com",
  to: ["owner@acme.test", "ops@acme.test"],
  workspaceName: "Acme",
  event: "post.publish",
  posts,
  date: new Date("2025-03-01T14:30:05.000Z"),
  ...over
})

const compose = (input: EmailInput) => Effect.promise(() => composeEmail(input))
const parse = (raw: Uint8Array) => Effect.promise(() => simpleParser(Buffer.from(raw), { keepCidLinks: true }))

/** A 640×360 clip that is red for its first half second, then blue; a clips row of the workspace points at it. */
const storedClip = (workspaceId: WorkspaceId, options: { seconds: number; rowDurationMs?: number }) =>
  Effect.gen(function*() {
    const blobs = yield* BlobStorage
    const renders = yield* RenderRepo
    const clipId = newUlid()
    const renderJobId = newUlid()
    const file = yield* blobs.tempPath(".mp4")
    const blue = Math.max(0.04, options.seconds - 0.5)
    yield* Effect.promise(() =>
      runFfmpeg([
        "-f",
        "lavfi",
        "-i",
        `color=c=red:s=640x360:r=25:d=${Math.min(0.5, options.seconds)}`,
        "-f",
        "lavfi",
        "-i",
        `color=c=blue:s=640x360:r=25:d=${blue}`,
        "-filter_complex",
        "[0:v][1:v]concat=n=2:v=1[v]",
        "-map",
        "[v]",
        "-c:v",
        "libx264",
        "-pix_fmt",
        "yuv420p",
        "-f",
        "mp4",
        "-y",
        file
      ])
    )
    const stored = yield* blobs.putFile(`clips/${workspaceId}/${clipId}.mp4`, file)
    yield* renders.insertJob(workspaceId, {
      id: renderJobId,
      origin: "export",
      details: "Test clip",
      postTitle: null,
      templateName: "Market move",
      package: {
        template: { id: "market-move", name: "Market move", variant: "standard", version: "1.0.0" },
        content: { headline: "Markets" },
        brand: null,
        channel: null,
        options: { outputs: [{ ratio: "16x9", locale: "en" }], priority: false }
      }
    })
    yield* renders.insertClip(workspaceId, {
      id: clipId,
      renderJobId,
      ratio: "16x9",
      locale: "en",
      width: 640,
      height: 360,
      durationMs: options.rowDurationMs ?? Math.round(options.seconds * 1000),
      byteSize: stored.byteSize,
      sha256: stored.sha256,
      blobKey: stored.key
    })
    return { clipId, blobKey: stored.key }
  }).pipe(Effect.scoped)

/** Width, height and the centre pixel of a JPEG. */
const look = (bytes: Uint8Array) =>
  Effect.promise(async () => {
    const img = await loadImage(Buffer.from(bytes))
    const canvas = createCanvas(img.width, img.height)
    const ctx = canvas.getContext("2d")
    ctx.drawImage(img, 0, 0)
    const [r, g, b] = ctx.getImageData(Math.floor(img.width / 2), Math.floor(img.height / 2), 1, 1).data
    const colour = r! > 180 && b! < 80 ? "red" : b! > 180 && r! < 80 ? "blue" : `${r},${g},${b}`
    return { width: img.width, height: img.height, colour }
  })

const stillOf = (workspaceId: WorkspaceId, clipId: string) =>
  Effect.flatMap(ClipStills, (stills) => stills.stillOf(workspaceId, clipId))

/** The colour of the middle of a clip's still. */
const stillColour = (workspaceId: WorkspaceId, clipId: string) =>
  Effect.flatMap(stillOf(workspaceId, clipId), (still) => look(Option.getOrThrow(still).bytes)).pipe(
    Effect.map((seen) => seen.colour)
  )

// The live clock: the SMTP pool, ffmpeg and the database run in real time.
describe("hand-over email: stills, message, transport", () => {
  layer(EmailTest, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a clip's still is a 480 px JPEG one second in; a short clip gives its first frame", () =>
      Effect.gen(function*() {
        const workspaceId = yield* newWorkspace("Stills")
        const long = yield* storedClip(workspaceId, { seconds: 2 })
        const still = yield* stillOf(workspaceId, long.clipId)
        assert.isTrue(Option.isSome(still))
        const { bytes, mimeType } = Option.getOrThrow(still)
        assert.strictEqual(mimeType, "image/jpeg")
        assert.deepStrictEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff])
        assert.deepStrictEqual(yield* look(bytes), { width: 480, height: 270, colour: "blue" })

        const short = yield* storedClip(workspaceId, { seconds: 0.4 })
        assert.strictEqual(yield* stillColour(workspaceId, short.clipId), "red")
        // Its row rounds the length up past the last frame: the still is still taken, from the first frame.
        const rounded = yield* storedClip(workspaceId, { seconds: 0.6, rowDurationMs: 1500 })
        assert.strictEqual(yield* stillColour(workspaceId, rounded.clipId), "red")
      }))

    it.effect("no still for a removed clip, a missing file or another workspace's clip", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const blobs = yield* BlobStorage
        const mine = yield* newWorkspace("Mine")
        const other = yield* newWorkspace("Other")
        const removed = yield* storedClip(mine, { seconds: 1 })
        yield* sql`UPDATE clips SET stored = false WHERE id = ${removed.clipId}`
        const vanished = yield* storedClip(mine, { seconds: 1 })
        yield* blobs.delete(vanished.blobKey)
        const theirs = yield* storedClip(other, { seconds: 1 })

        assert.isTrue(Option.isNone(yield* stillOf(mine, removed.clipId)))
        assert.isTrue(Option.isNone(yield* stillOf(mine, vanished.clipId)))
        assert.isTrue(Option.isNone(yield* stillOf(mine, theirs.clipId)))
        assert.isTrue(Option.isNone(yield* stillOf(mine, "01NOSUCHCLIP")))
        assert.isTrue(Option.isSome(yield* stillOf(other, theirs.clipId)))
      }))

    it.scoped("an email sent over SMTP arrives with both bodies, the inline still, captions, hashtags and links", () =>
      Effect.gen(function*() {
        const sink = yield* smtpSink
        const workspaceId = yield* newWorkspace("Acme")
        const { clipId } = yield* storedClip(workspaceId, { seconds: 2 })
        const still = Option.getOrThrow(yield* stillOf(workspaceId, clipId))
        const p = post("01POSTONE")
        const input = emailInput([item(p, still)])
        const { raw, subject } = yield* compose(input)
        assert.strictEqual(subject, "New post: Fed holds rates <steady> & calm")

        const outcome = yield* Effect.flatMap(
          MailTransport,
          (mail) => mail.send({ deliveryId: input.deliveryId, from: input.from, to: input.to, raw })
        ).pipe(Effect.provide(transportWith(Option.some(sink.url))))
        assert.include(outcome, { ok: true, statusCode: 250, error: null })
        assert.include(outcome.answer, "Message taken by the test sink")

        const [got] = yield* Effect.promise(() => sink.waitFor(1))
        assert.deepStrictEqual(got!.envelope, { from: input.from, to: ["owner@acme.test", "ops@acme.test"] })
        assert.isTrue(got!.raw.equals(Buffer.from(raw)), "the message arrives byte for byte as composed")
        assert.strictEqual(got!.subject, subject)
        assert.strictEqual(got!.messageId, `<${input.deliveryId}@clipwright>`)
        assert.strictEqual(got!.from?.text, "clipwright@clips.example.com")

        const text = got!.text ?? ""
        for (
          const expected of [
            "Markets desk · Instagram Reels",
            "Title: Fed holds rates <steady> & calm",
            "Scheduled for: 2025-03-01 14:30 UTC",
            `Short caption:\n${p.captions.short}`,
            `Medium caption:\n${p.captions.medium}`,
            `Long caption:\n${p.captions.long}`,
            "Hashtags: #markets #rates",
            `Clip: ${p.assets[0]!.url} (the link works until 2025-03-08 14:30 UTC)`,
            `Published it? Tell us where: ${p.receipt.url}`
          ]
        ) assert.include(text, expected)

        const html = String(got!.html)
        assert.include(html, "Fed holds rates &lt;steady&gt; &amp; calm")
        assert.notInclude(html, "<steady>")
        for (const caption of Object.values(p.captions)) assert.include(html, caption)
        assert.include(html, "#markets #rates")
        assert.include(html, `href="https://clips.example.com/v1/assets/clip-01POSTONE?exp=1740000000&amp;sig=abc"`)
        assert.include(html, `href="https://clips.example.com/r/01POSTONE?sig=def">Tell us where</a>`)
        assert.include(html, `src="cid:still-01POSTONE@clipwright"`)
        assert.notMatch(html, /src="https?:/, "no external images")

        assert.strictEqual(got!.attachments.length, 1)
        const [picture] = got!.attachments
        assert.strictEqual(picture!.contentType, "image/jpeg")
        assert.strictEqual(picture!.cid, "still-01POSTONE@clipwright")
        assert.strictEqual(picture!.contentDisposition, "inline")
        assert.isTrue(picture!.content.equals(Buffer.from(still.bytes)))
      }))

    it.scoped("a refused message is ok: false with the 550; the same transport sends it once the server takes it", () =>
      Effect.gen(function*() {
        const sink = yield* smtpSink
        const input = emailInput([item(post("01POSTREFUSED"), null)])
        const { raw } = yield* compose(input)
        const mail = { deliveryId: input.deliveryId, from: input.from, to: input.to, raw }
        yield* Effect.gen(function*() {
          const transport = yield* MailTransport
          sink.refuse(true)
          const refused = yield* transport.send(mail)
          assert.include(refused, { ok: false, statusCode: 550 })
          assert.include(refused.error, "Refused by the test sink")
          assert.strictEqual(sink.refusals(), 1)
          assert.strictEqual(sink.messages.length, 0)

          sink.refuse(false)
          assert.include(yield* transport.send(mail), { ok: true, statusCode: 250 })
          const [taken] = yield* Effect.promise(() => sink.waitFor(1))
          assert.strictEqual(taken!.messageId, `<${input.deliveryId}@clipwright>`)
        }).pipe(Effect.provide(transportWith(Option.some(sink.url))))
      }))

    it.effect("a server that is down is ok: false with the reason and no status code", () =>
      Effect.gen(function*() {
        const port = yield* Effect.promise(() => freePort())
        const input = emailInput([item(post("01POSTDOWN"), null)])
        const { raw } = yield* compose(input)
        const outcome = yield* Effect.flatMap(MailTransport, (mail) =>
          mail.send({ deliveryId: input.deliveryId, from: input.from, to: input.to, raw })).pipe(
            Effect.provide(transportWith(Option.some(`smtp://127.0.0.1:${port}`)))
          )
        assert.include(outcome, { ok: false, statusCode: null })
        assert.include(outcome.error, "ECONNREFUSED")
      }))

    it.effect("without SMTP_URL the message is written to DATA_DIR/outbox as an .eml; a resend replaces it", () =>
      Effect.gen(function*() {
        const { dataDir } = yield* AppConfig
        const p = post("01POSTOUTBOX")
        const input = emailInput([item(p, { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), mimeType: "image/jpeg" })])
        const { raw } = yield* compose(input)
        const outbox = path.join(dataDir, "outbox")
        const outcomes = yield* Effect.flatMap(
          MailTransport,
          (mail) =>
            Effect.all(
              [1, 2].map(() => mail.send({ deliveryId: input.deliveryId, from: input.from, to: input.to, raw }))
            )
        ).pipe(Effect.provide(transportWith(Option.none())))
        for (const outcome of outcomes) {
          const answer = `written to outbox/${input.deliveryId}.eml`
          assert.include(outcome, { ok: true, statusCode: null, error: null, answer })
        }
        assert.deepStrictEqual(fs.readdirSync(outbox), [`${input.deliveryId}.eml`])

        const parsed = yield* parse(fs.readFileSync(path.join(outbox, `${input.deliveryId}.eml`)))
        assert.strictEqual(parsed.subject, "New post: Fed holds rates <steady> & calm")
        assert.strictEqual(parsed.messageId, `<${input.deliveryId}@clipwright>`)
        assert.strictEqual(parsed.date?.toISOString(), "2025-03-01T14:30:05.000Z")
        assert.deepStrictEqual(
          [parsed.to].flat().flatMap((to) => to?.value.map((v) => v.address)),
          ["owner@acme.test", "ops@acme.test"]
        )
        assert.include(parsed.text, `Long caption:\n${p.captions.long}`)
        assert.include(String(parsed.html), `src="cid:still-01POSTOUTBOX@clipwright"`)
        assert.strictEqual(parsed.attachments[0]?.cid, "still-01POSTOUTBOX@clipwright")
      }))

    it.effect("the same input composes to the same bytes; another delivery is another message", () =>
      Effect.gen(function*() {
        const still: Still = { bytes: new Uint8Array([1, 2, 3]), mimeType: "image/jpeg" }
        const input = emailInput([item(post("01POSTSAME"), still)])
        const first = yield* compose(input)
        const again = yield* compose({ ...input, posts: input.posts.map((p) => ({ ...p })) })
        assert.isTrue(Buffer.from(first.raw).equals(Buffer.from(again.raw)))
        const other = yield* compose({ ...input, deliveryId: newUlid() })
        assert.isFalse(Buffer.from(first.raw).equals(Buffer.from(other.raw)))
      }))

    it.effect("a batch carries every post with its own still; updates and deletes say so", () =>
      Effect.gen(function*() {
        const jpeg = (n: number): Still => ({
          bytes: new Uint8Array([0xff, 0xd8, n, 0xff, 0xd9]),
          mimeType: "image/jpeg"
        })
        const a = post("01POSTA", { title: "Markets rally" })
        const b = post("01POSTB", {
          title: "Markets rally",
          channel: { ...a.channel, id: "channel-b", name: "Shorts desk", surfaceLabel: "YouTube Shorts" }
        })
        const batch = yield* compose(emailInput([item(a, jpeg(1)), item(b, jpeg(2))]))
        assert.strictEqual(batch.subject, "2 new posts: Markets rally …")
        const parsed = yield* parse(batch.raw)
        assert.include(parsed.text, "Markets desk · Instagram Reels")
        assert.include(parsed.text, "Shorts desk · YouTube Shorts")
        assert.include(String(parsed.html), `src="cid:still-01POSTA@clipwright"`)
        assert.include(String(parsed.html), `src="cid:still-01POSTB@clipwright"`)
        assert.deepStrictEqual(parsed.attachments.map((x) => [x.cid, x.content[2]]), [
          ["still-01POSTA@clipwright", 1],
          ["still-01POSTB@clipwright", 2]
        ])

        const published = { platformPostId: "ig-123", permalink: "https://instagram.example/p/123" }
        const update = yield* compose(emailInput([item(post("01POSTU", published), null)], {
          event: "post.update",
          changes: { caption: "Rates held, again.", hashtags: ["fed"] }
        }))
        assert.strictEqual(update.subject, "Post update: Fed holds rates <steady> & calm")
        const updateText = (yield* parse(update.raw)).text ?? ""
        assert.include(updateText, "Please update this post where it was published.")
        assert.include(updateText, "Caption: Rates held, again.")
        assert.include(updateText, "Hashtags: #fed")
        assert.include(updateText, "On the platform: https://instagram.example/p/123, id ig-123")

        const remove = yield* compose(emailInput([item(post("01POSTD", published), null)], { event: "post.delete" }))
        assert.strictEqual(remove.subject, "Remove post: Fed holds rates <steady> & calm")
        const removeMail = yield* parse(remove.raw)
        assert.include(removeMail.text, "Please remove this post where it was published.")
        assert.strictEqual(removeMail.attachments.length, 0)
      }))
  })
})
