import { Context, Effect, Layer, Option } from "effect"
import { type ChannelMatch, MatchingChannels } from "../channels/MatchingChannels.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { FeedSwitches } from "../feeds/FeedSwitches.js"
import { ConfigChanges, EVERY_WORKSPACE } from "../sql/ConfigChanges.js"
import type { SendTarget } from "../streams/StreamRecord.js"
import { Streams } from "../streams/Streams.js"

export interface StreamTarget {
  readonly stream: SendTarget
  readonly matches: ReadonlyArray<ChannelMatch>
}

export interface FeedTarget {
  readonly on: boolean
  readonly matches: ReadonlyArray<ChannelMatch>
}

/** A remembered answer stops being trusted after this long even if no change was heard (a LISTEN gap). */
const TRUST_MS = 10_000

interface Remembered<A> {
  readonly value: A
  readonly at: number
}

/**
 * What an event needs of the workspace's configuration (the stream, the channels it reaches, the feed switch), kept
 * in memory: reading it for every event cost two queries, the larger part of an event's price. It is dropped on every
 * node when the workspace's configuration changes (`ConfigChanges`), and a reading that overlapped a change is not
 * kept, so what an event sees is at most milliseconds behind a committed change on another node, and never behind
 * one made on this node.
 */
const make = Effect.gen(function*() {
  const streams = yield* Streams
  const matching = yield* MatchingChannels
  const switches = yield* FeedSwitches
  const byWorkspace = new Map<string, Map<string, Remembered<unknown>>>()
  // Bumped by every change: a reading that started before the change must not be kept after it.
  const generations = new Map<string, number>()
  let everything = 0

  yield* (yield* ConfigChanges).listen((workspaceId) => {
    if (workspaceId === EVERY_WORKSPACE) {
      everything++
      byWorkspace.clear()
      return
    }
    generations.set(workspaceId, (generations.get(workspaceId) ?? 0) + 1)
    byWorkspace.delete(workspaceId)
  })

  const remembered = <A, E, R>(
    workspaceId: WorkspaceId,
    key: string,
    read: Effect.Effect<Option.Option<A>, E, R>
  ): Effect.Effect<Option.Option<A>, E, R> =>
    Effect.suspend(() => {
      const known = byWorkspace.get(workspaceId)?.get(key)
      if (known !== undefined && Date.now() - known.at < TRUST_MS) return Effect.succeed(Option.some(known.value as A))
      const generation = generations.get(workspaceId) ?? 0
      const epoch = everything
      const started = Date.now()
      return Effect.tap(read, (value) => {
        if (Option.isNone(value) || generation !== (generations.get(workspaceId) ?? 0) || epoch !== everything) return
        let entries = byWorkspace.get(workspaceId)
        if (entries === undefined) byWorkspace.set(workspaceId, entries = new Map())
        entries.set(key, { value: value.value, at: started })
      })
    })

  return {
    /** The workspace's live stream and the channels its events reach; None for a missing or another's stream. */
    stream: (workspaceId: WorkspaceId, streamId: string): Effect.Effect<Option.Option<StreamTarget>> =>
      remembered(
        workspaceId,
        `stream:${streamId}`,
        Effect.gen(function*() {
          const stream = yield* streams.sendTarget(workspaceId, streamId)
          if (Option.isNone(stream)) return Option.none()
          return Option.some({ stream: stream.value, matches: yield* matching.forStream(workspaceId, streamId) })
        })
      ),
    /** Whether the workspace has the feed on, and the channels subscribed to it. */
    feed: (workspaceId: WorkspaceId, feedId: string): Effect.Effect<FeedTarget> =>
      Effect.map(
        remembered(
          workspaceId,
          `feed:${feedId}`,
          Effect.gen(function*() {
            const on = yield* switches.isOn(workspaceId, feedId)
            return Option.some({ on, matches: on ? yield* matching.forFeed(workspaceId, feedId) : [] })
          })
        ),
        Option.getOrThrow
      )
  }
})

export class IngestTargets extends Context.Tag("clipwright/ingest/IngestTargets")<
  IngestTargets,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.scoped(IngestTargets, make)
}
