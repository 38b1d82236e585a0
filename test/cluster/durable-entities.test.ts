import { ClusterSchema } from "@effect/cluster"
import { Context } from "effect"
import { describe, expect, it } from "vitest"
import { BrandEntity } from "../../src/brands/BrandEntity.js"
import { ChannelEntity } from "../../src/channels/ChannelEntity.js"
import { HandOverEntity } from "../../src/delivery/handover/HandOverEntity.js"
import { PostListEntity } from "../../src/queues/PostListEntity.js"
import { WorkspaceAllowanceEntity } from "../../src/renders/allowance/WorkspaceAllowanceEntity.js"
import { ExportEntity } from "../../src/renders/exports/ExportEntity.js"
import { RenderRunnerEntity } from "../../src/renders/RenderRunnerEntity.js"
import { StreamEntity } from "../../src/streams/StreamEntity.js"

const entities = [
  StreamEntity,
  BrandEntity,
  ChannelEntity,
  HandOverEntity,
  WorkspaceAllowanceEntity,
  RenderRunnerEntity,
  ExportEntity,
  PostListEntity
]

// test/queues/client-gone.test.ts shows what one such message cost: a post stored with no timer, never fired.
describe("every entity message", () => {
  it("is persisted, and a caller that stops waiting does not interrupt its handler", () => {
    const loose = entities.flatMap((entity) =>
      [...entity.protocol.requests.values()]
        .filter((rpc) =>
          !Context.get(rpc.annotations, ClusterSchema.Persisted) ||
          !ClusterSchema.Uninterruptible.forClient(rpc.annotations)
        )
        .map((rpc) => `${entity.type}/${rpc._tag}`)
    )
    expect(loose).toEqual([])
    expect(entities.flatMap((entity) => [...entity.protocol.requests.keys()]).length).toBeGreaterThan(30)
  })
})
