import * as fs from "node:fs"
import type { Answer } from "./Client.js"

/** A multipart upload with `fetch`, `FormData` and `Blob`: the text parts and one file part named `name`. */
export const upload = async (
  url: string,
  key: string,
  file: { readonly bytes: Uint8Array; readonly name: string; readonly type?: string },
  fields: Record<string, string> = {},
  order: "fieldsFirst" | "fileFirst" = "fieldsFirst"
): Promise<Answer> => {
  const form = new FormData()
  const addFields = () => Object.entries(fields).forEach(([name, value]) => form.append(name, value))
  if (order === "fieldsFirst") addFields()
  form.append("file", new Blob([file.bytes], { type: file.type ?? "application/octet-stream" }), file.name)
  if (order === "fileFirst") addFields()
  const response = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form })
  const text = await response.text()
  let body: unknown
  try {
    body = text === "" ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, headers: response.headers, body, text }
}

/**
 * A multipart body of `head` followed by zeros up to `size` bytes, sent chunked (no Content-Length), so the server
 * sees the bytes only as they come. Answers the status, or the error when the server ends the connection first.
 */
export const streamUpload = async (url: string, key: string, head: Uint8Array, size: number, name = "big.png") => {
  const boundary = "----cw" + Math.random().toString(16).slice(2)
  const encoder = new TextEncoder()
  const opening = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n"
  )
  const closing = encoder.encode(`\r\n--${boundary}--\r\n`)
  const zeros = new Uint8Array(256 * 1024)
  let sent = 0
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(opening)
      controller.enqueue(head)
      sent = head.length
    },
    pull(controller) {
      if (sent >= size) {
        controller.enqueue(closing)
        controller.close()
        return
      }
      const piece = zeros.subarray(0, Math.min(zeros.length, size - sent))
      sent += piece.length
      controller.enqueue(piece)
    }
  })
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: "half"
  } as RequestInit).then(
    async (r) => ({ status: r.status, text: await r.text() }),
    (error: unknown) => ({ status: 0, text: `${String(error)} ${String((error as { cause?: unknown }).cause)}` })
  )
  return { ...response, sent: () => sent }
}

/** Resident memory of a process in bytes (Linux `/proc/<pid>/status`). */
export const rssOf = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? "0")
  return kb * 1024
}

/** Samples a process's RSS every few milliseconds while `work` runs; answers the work's result and the peak. */
export const peakRssDuring = async <A>(pid: number, work: () => Promise<A>) => {
  let peak = rssOf(pid)
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid))
  }, 5)
  try {
    const result = await work()
    return { result, peak: Math.max(peak, rssOf(pid)) }
  } finally {
    clearInterval(timer)
  }
}
