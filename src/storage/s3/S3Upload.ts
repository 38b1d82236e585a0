import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand
} from "@aws-sdk/client-s3"
import { type Cause, Chunk, Effect, Exit, Fiber, Queue, Stream } from "effect"

type Call = <A>(run: (signal: AbortSignal) => Promise<A>) => Effect.Effect<A>

/**
 * A body of unknown length streamed into `Key`, read straight from the Effect stream into part buffers: no Node
 * stream between it and the SDK, each byte copied once. A body that fits one part goes up as one PUT; a longer one as
 * a multipart upload with at most `queue` parts in flight (so `(queue + 1) × partBytes` of it in memory at most),
 * completed only once every part is in and aborted if anything fails or interrupts it, so nothing partial is visible.
 * Answers the object's ETag.
 */
export const streamUpload = <E, R>(
  client: S3Client,
  call: Call,
  target: { readonly Bucket: string; readonly Key: string },
  stream: Stream.Stream<Uint8Array, E, R>,
  sizes: { readonly partBytes: number; readonly queue: number }
) =>
  Effect.gen(function*() {
    const { Bucket, Key } = target
    let part: Buffer = Buffer.allocUnsafe(sizes.partBytes)
    let filled = 0
    let UploadId: string | undefined
    // A part that failed stops the upload at the next part, not after the whole body has been read.
    let failed: Cause.Cause<never> | undefined
    const sent: Array<Fiber.Fiber<{ readonly PartNumber: number; readonly ETag: string | undefined }>> = []
    // `queue` parts on their way and one filling, in buffers reused part after part: a fresh 8 MiB buffer per part
    // costs more to page in than to fill. Waiting for a buffer back is what holds the stream while `queue` are out.
    const free = yield* Queue.unbounded<Buffer>()
    let allocated = 1
    const nextBuffer = Effect.suspend(() => {
      if (allocated > sizes.queue) return Queue.take(free)
      allocated += 1
      return Effect.succeed(Buffer.allocUnsafe(sizes.partBytes))
    })

    const send = (buffer: Buffer, length: number) =>
      Effect.gen(function*() {
        if (failed !== undefined) return yield* Effect.failCause(failed)
        if (UploadId === undefined) {
          const created = yield* call((abortSignal) =>
            client.send(new CreateMultipartUploadCommand({ Bucket, Key }), { abortSignal })
          )
          UploadId = created.UploadId
        }
        const uploadId = UploadId
        const PartNumber = sent.length + 1
        const Body = buffer.subarray(0, length)
        const upload = call((abortSignal) =>
          client.send(
            new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body, ContentLength: Body.length }),
            { abortSignal }
          )
        ).pipe(
          Effect.map((out) => ({ PartNumber, ETag: out.ETag })),
          Effect.tapErrorCause((cause) => Effect.sync(() => (failed ??= cause))),
          Effect.ensuring(Queue.offer(free, buffer))
        )
        sent.push(yield* Effect.forkScoped(upload))
      })

    const fill = (chunk: Chunk.Chunk<Uint8Array>) =>
      Effect.gen(function*() {
        for (const bytes of Chunk.toReadonlyArray(chunk)) {
          let offset = 0
          while (offset < bytes.length) {
            const n = Math.min(bytes.length - offset, part.length - filled)
            part.set(bytes.subarray(offset, offset + n), filled)
            filled += n
            offset += n
            if (filled === part.length) {
              yield* send(part, filled)
              part = yield* nextBuffer
              filled = 0
            }
          }
        }
      })

    const abort = Effect.suspend(() =>
      UploadId === undefined ?
        Effect.void :
        call((abortSignal) => client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }), { abortSignal }))
          .pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("A cut-off multipart upload could not be aborted", cause))
          )
    )

    return yield* Effect.gen(function*() {
      yield* Stream.runForEachChunk(stream, fill)
      if (UploadId === undefined) {
        const Body = part.subarray(0, filled)
        const out = yield* call((abortSignal) =>
          client.send(new PutObjectCommand({ Bucket, Key, Body, ContentLength: Body.length }), { abortSignal })
        )
        return out.ETag
      }
      if (filled > 0) yield* send(part, filled)
      const Parts = yield* Fiber.joinAll(sent)
      const uploadId = UploadId
      const done = yield* call((abortSignal) =>
        client.send(
          new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts } }),
          { abortSignal }
        )
      )
      return done.ETag
    }).pipe(
      // The scope closes first (parts still on their way are interrupted), then the upload is aborted.
      Effect.scoped,
      Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : abort)
    )
  })
