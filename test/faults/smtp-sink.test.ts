import * as net from "node:net"
import nodemailer from "nodemailer"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type SmtpSink, startSmtpSink } from "../support/SmtpSink.js"

/** A client that gets as far as DATA and then vanishes with a reset, as a node SIGKILLed mid-send does. */
const vanishMidMessage = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1")
    const steps = ["EHLO node\r\n", "MAIL FROM:<clips@example.com>\r\n", "RCPT TO:<desk@example.com>\r\n", "DATA\r\n"]
    socket.on("error", reject)
    socket.on("data", (reply) => {
      const step = steps.shift()
      if (step !== undefined) return void socket.write(step)
      if (!reply.toString().startsWith("354")) return reject(new Error(`DATA refused: ${reply}`))
      // Half a message, read by the sink before the reset comes: the session is mid-transaction.
      socket.write("Subject: cut off\r\n\r\nhalf a mess", () =>
        setTimeout(() => {
          socket.resetAndDestroy()
          resolve()
        }, 100))
    })
  })

describe("the SMTP sink the fault matrix shares with the tests", () => {
  let sink: SmtpSink
  beforeAll(async () => {
    sink = await startSmtpSink()
  })
  afterAll(() => sink.stop())

  it("outlives clients that vanish mid-message, and takes the next message whole", async () => {
    const port = Number(new URL(sink.url).port)
    // The second reset is the one that used to end the test process (the first met the listen's once-listener).
    for (let i = 0; i < 3; i++) await vanishMidMessage(port)
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true })
    await transport.sendMail({
      from: "clips@example.com",
      to: "desk@example.com",
      subject: "after the resets",
      text: "whole"
    })
    const [message] = await sink.waitFor(1)
    expect(message?.subject).toBe("after the resets")
    expect(sink.messages).toHaveLength(1)
  })
})
