import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeEffectClient } from "../../src/client/EffectClient.js"
import { createClipwrightClient } from "../../src/client/index.js"
import { useNode } from "../support/Rig.js"

/**
 * Both clients of `clipwright/client` against a real node: the `fetch` one (openapi-fetch over the generated types)
 * and the Effect one (`HttpApiClient` over the contract), with the rig's workspace key.
 */
const { node, workspace } = useNode({ label: "client", workspace: { name: "Client" } })

/** The shipped headline template, as the example uses it. */
const TEMPLATE_ID = "tpl_3a7c91e04b5d"

const effectCall = <A, E>(
  call: (client: Effect.Effect.Success<ReturnType<typeof makeEffectClient>>) => Effect.Effect<A, E>
) =>
  makeEffectClient({ baseUrl: node.url, apiKey: workspace.apiKey }).pipe(
    Effect.flatMap(call),
    Effect.provide(FetchHttpClient.layer),
    Effect.runPromise
  )

describe("the fetch client", () => {
  const client = () => createClipwrightClient({ baseUrl: node.url, apiKey: workspace.apiKey })

  it("creates a brand and a stream, and lists the streams", async () => {
    const brand = await client().POST("/v1/brands", { body: { name: "Fetched" } })
    expect(brand.response.status).toBe(201)
    expect(brand.data?.brand.name).toBe("Fetched")

    const created = await client().POST("/v1/streams", { body: { name: "Prices", templateId: TEMPLATE_ID } })
    expect(created.error).toBeUndefined()
    const listed = await client().GET("/v1/streams")
    expect(listed.data?.streams.map((s) => [s.id, s.name, s.templateId])).toContainEqual([
      created.data?.stream.id,
      "Prices",
      TEMPLATE_ID
    ])
  })

  it("answers a 404 with the node's error envelope", async () => {
    const { data, error, response } = await client().GET("/v1/brands/{id}", { params: { path: { id: "brd_none" } } })
    expect(response.status).toBe(404)
    expect(data).toBeUndefined()
    expect(error?.error.code).toBe("not_found")
    expect(error?.error.requestId).toBe(response.headers.get("x-request-id"))
    expect(error?.error.details).toEqual([])
  })

  it("sends the key only when given one", async () => {
    const anonymous = createClipwrightClient({ baseUrl: node.url })
    expect((await anonymous.GET("/health")).data?.status).toBe("ok")
    const refused = await anonymous.GET("/v1/streams")
    expect(refused.response.status).toBe(401)
    expect(refused.error?.error.code).toBe("unauthenticated")
  })
})

describe("the Effect client", () => {
  it("creates a brand and a stream, and lists the streams", async () => {
    const { brand, stream, streams } = await effectCall((client) =>
      Effect.all({
        brand: client.brands.create({ payload: { name: "Effected" } }),
        stream: client.streams.create({ payload: { name: "Rates", templateId: TEMPLATE_ID } }),
        streams: client.streams.list()
      })
    )
    expect(brand.brand.name).toBe("Effected")
    expect(streams.streams.map((s) => [s.id, s.name])).toContainEqual([stream.stream.id, "Rates"])
  })

  it("fails with the endpoint's typed error, read from the envelope", async () => {
    const error = await effectCall((client) => Effect.flip(client.brands.get({ path: { id: "brd_none" } })))
    expect(error._tag).toBe("NotFound")
    expect(error.message).toMatch(/brand/i)
  })

  it("fails a refused key as Unauthenticated", async () => {
    const error = await makeEffectClient({ baseUrl: node.url, apiKey: "cw_wrong" }).pipe(
      Effect.flatMap((client) => Effect.flip(client.streams.list())),
      Effect.provide(FetchHttpClient.layer),
      Effect.runPromise
    )
    expect(error._tag).toBe("Unauthenticated")
  })
})
