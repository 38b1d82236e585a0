import * as fs from "node:fs"
import * as path from "node:path"
import { expect } from "vitest"
import { makeSigning } from "../../src/storage/Signing.js"
import type { client } from "./Client.js"
import { query } from "./Database.js"
import { waitForExport } from "./Exports.js"

type Api = ReturnType<typeof client>

export const MB = 1024 * 1024

export interface ClipState {
  readonly id: string
  readonly byteSize: number
  readonly kept: boolean
  readonly stored: boolean
  readonly blobKey: string
}

/** Finished and settled (kept, or refused with a note): polling settles it. */
export const waitSettled = async (api: Api, jobId: string) => {
  expect(await waitForExport(api, jobId, 180_000)).toMatchObject({ status: "succeeded" })
  for (let i = 0; i < 100; i++) {
    const poll = await api.get(`/v1/direct-export/video/${jobId}`)
    if (poll.body.kept === true || poll.body.keptNote !== null) return poll.body
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`export ${jobId} was never settled`)
}

/** The clip row of an export, as stored. */
export const clipOf = async (dbUrl: string, jobId: string): Promise<ClipState> => {
  const rows = await query<Record<string, unknown>>(
    dbUrl,
    `SELECT c.id, c.byte_size::float8 AS byte_size, c.kept, c.stored, c.blob_key
     FROM exports e JOIN clips c ON c.id = e.clip_id WHERE e.id = $1`,
    [jobId]
  )
  const r = rows[0]!
  return {
    id: String(r["id"]),
    byteSize: Number(r["byte_size"]),
    kept: r["kept"] === true,
    stored: r["stored"] === true,
    blobKey: String(r["blob_key"])
  }
}

export const blobPath = (dataDir: string, key: string) => path.join(dataDir, "blobs", ...key.split("/"))
export const blobExists = (dataDir: string, key: string) => fs.existsSync(blobPath(dataDir, key))

/** The node's URL signing, from the secret it keeps in `signing_keys`. */
export const urlSigning = async (dbUrl: string) => {
  const rows = await query<{ secret: string }>(dbUrl, "SELECT secret FROM signing_keys WHERE id = 'urls'")
  return makeSigning(Buffer.from(rows[0]!.secret, "base64url"))
}

/** A media library row without bytes (accounting only). */
export const insertMediaRow = (dbUrl: string, workspaceId: string, id: string, byteSize: number) =>
  query(
    dbUrl,
    `INSERT INTO media_files (id, workspace_id, name, mime_type, kind, byte_size, sha256, blob_key, uploaded_by)
     VALUES ($1, $2, $3, 'image/png', 'Image', $4, 'x', 'media/x', 'apikey:test')`,
    [id, workspaceId, `${id}.png`, byteSize]
  )

const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100

/** The expected storage block for an allowance, a split and the bytes held. */
export const expectedBlock = (storageMb: number, mediaPercent: number, media: number, renders: number) => {
  const max = storageMb * MB
  const clipsMax = Math.floor(max * (100 - mediaPercent) / 100)
  const share = (maxBytes: number, usedBytes: number) => ({
    maxBytes,
    usedBytes,
    maxMb: mb(maxBytes),
    usedMb: mb(usedBytes),
    remainingBytes: Math.max(0, maxBytes - usedBytes)
  })
  return {
    maxMb: storageMb,
    maxBytes: max,
    usedBytes: media + renders,
    usedBy: { media, renders },
    remainingBytes: Math.max(0, max - media - renders),
    includedMb: storageMb,
    mediaPercent,
    media: share(max - clipsMax, media),
    clips: share(clipsMax, renders),
    split: { minPercent: 10, maxPercent: 90 },
    used: mb(media + renders),
    max: storageMb
  }
}
