import { Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "../Config.js"
import { detailAt, NotFound, SchemaValidation } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import type { ChannelCredentials, CredentialField, CredentialsBody } from "./Credential.js"
import type { CredentialRow } from "./CredentialRecord.js"
import { CredentialRepo } from "./CredentialRepo.js"

const MASK = "••••"

/** A secret keeps only its last four characters, and none when it is too short for that to hide anything. */
const masked = (value: string) => (value.length >= 12 ? `${MASK}${value.slice(-4)}` : MASK)

const toField = (row: CredentialRow): CredentialField => {
  const shown = row.secret ? masked(row.value) : row.value
  return {
    key: row.key,
    label: row.label,
    hint: row.value === "" ? "" : row.secret ? shown : row.value.slice(0, 40),
    secret: row.secret,
    value: row.value === "" ? "" : shown,
    complete: row.value !== "",
    updatedAt: row.updatedAt.toISOString(),
    // Values are stored as given, so every stored field is readable.
    unreadable: false
  }
}

const group = (rows: ReadonlyArray<CredentialRow>): Array<ChannelCredentials> => {
  const byChannel = new Map<string, { channel: CredentialRow; fields: Array<CredentialField> }>()
  for (const row of rows) {
    const entry = byChannel.get(row.channelId) ?? { channel: row, fields: [] }
    entry.fields.push(toField(row))
    byChannel.set(row.channelId, entry)
  }
  return [...byChannel.values()].map(({ channel, fields }) => ({
    channelId: channel.channelId,
    channelName: channel.channelName,
    surface: channel.surface,
    fields
  }))
}

const duplicateKeys = (body: CredentialsBody) => {
  const seen = new Set<string>()
  return body.fields.flatMap((field, i) => {
    if (!seen.has(field.key)) {
      seen.add(field.key)
      return []
    }
    return [detailAt(["fields", i, "key"], `key ${field.key} is sent twice`, "unique")]
  })
}

/** Deprecated credential store (SPEC Channels, Versioning 1): kept per channel, shown masked, never used. */
const make = Effect.gen(function*() {
  const repo = yield* CredentialRepo
  const config = yield* AppConfig

  const missing = (channelId: string) => new NotFound({ message: `No channel ${channelId}.` })

  const put = Effect.fn("Credentials.put")(function*(
    workspaceId: WorkspaceId,
    channelId: string,
    body: CredentialsBody
  ) {
    const details = duplicateKeys(body)
    if (details.length > 0) {
      return yield* new SchemaValidation({ message: "Each credential key may be sent once.", details })
    }
    yield* repo.withTransaction(Effect.gen(function*() {
      if (Option.isNone(yield* repo.lockChannel(workspaceId, channelId))) return yield* missing(channelId)
      yield* repo.forget(workspaceId, channelId)
      yield* repo.insert(body.fields.map((field, position) => ({
        workspaceId,
        channelId,
        key: field.key,
        label: field.label ?? null,
        value: field.value,
        secret: field.secret,
        position
      })))
    }))
    const rows = yield* repo.list(workspaceId, channelId)
    return { channelId, fields: rows.map(toField) }
  })

  const remove = Effect.fn("Credentials.delete")(function*(workspaceId: WorkspaceId, channelId: string) {
    const forgotten = yield* repo.withTransaction(Effect.gen(function*() {
      if (Option.isNone(yield* repo.lockChannel(workspaceId, channelId))) return yield* missing(channelId)
      return yield* repo.forget(workspaceId, channelId)
    }))
    return { deleted: true as const, forgotten }
  })

  const connections = Effect.fn("Credentials.connections")(function*(workspaceId: WorkspaceId) {
    const rows = yield* repo.listAll(workspaceId)
    return { mode: "SELF_HOSTED" as const, endpoint: `${config.publicBaseUrl}/v1`, channels: group(rows) }
  })

  return { put, remove, connections }
})

export class Credentials extends Context.Tag("clipwright/channels/Credentials")<
  Credentials,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Credentials, make).pipe(Layer.provideMerge(CredentialRepo.layer))
}
