/**
 * The operator's part and the first call with a key: a workspace with its owner, an API key, a brand, and the
 * workspace's webhook address with the receiver listening on it.
 */
import { type Api, makeApi, ok } from "../support/api.js"
import { admin, type NodeSettings, type Started, startReceiver } from "../support/processes.js"

export interface Workspace {
  readonly accountId: string
  readonly ownerEmail: string
  readonly api: Api
  readonly brandId: string
  readonly receiver: Started
}

export const OWNER_EMAIL = "ops@acme.example"

export const makeWorkspace = async (
  node: NodeSettings & { readonly url: string },
  receiverAt: { readonly port: number; readonly logFile: string },
  say: (line: string) => void
): Promise<Workspace> => {
  // The operator CLI (`npx clipwright admin …`) prints each answer as JSON. The owner is who signs in to the
  // console and who gets the approval requests and hand-over emails.
  const workspace = await admin(node, ["workspace", "create", "--name", "Acme", "--owner-email", OWNER_EMAIL])
  const accountId = String(workspace["accountId"])
  // `*` gives the key every permission of the workspace; the key is shown this once. The operator also sets where
  // the workspace's webhooks go; that answer is the signing secret the receiver checks every call with. A loopback
  // address is accepted only because the node runs with ALLOW_PRIVATE_URLS=true. (The two commands need only the
  // workspace, so they run side by side.)
  const hooks = `http://127.0.0.1:${receiverAt.port}/hooks`
  const [key, webhook] = await Promise.all([
    admin(node, ["key", "create", accountId, "--scopes", "*", "--name", "example"]),
    admin(node, ["webhook", "set", accountId, "--url", hooks])
  ])
  const api = makeApi(node.url, String(key["apiKey"]))
  const secret = String(webhook["secret"])
  say(`workspace Acme (${accountId}), owner ${OWNER_EMAIL}, API key ${String(key["apiKey"]).slice(0, 10)}…`)
  say(`webhook ${hooks}, signing secret ${secret.slice(0, 12)}…`)

  // A channel wears a brand: there must be one before any channel (else 409 "Make a brand first").
  const { brand } = await ok(api.POST("/v1/brands", { body: { name: "Acme" } }))
  say(`brand ${brand.name} (${brand.id}), default colours and fonts`)

  // The shipped reference receiver (`npx clipwright receiver`): verifies signature, timestamp and replays, prints
  // one line per post and answers made-up receipts. Your own receiver uses `verifyWebhook` from clipwright/receiver.
  const receiver = await startReceiver(secret, receiverAt.port, receiverAt.logFile)
  say(`receiver ${(await receiver.waitForLine(/^listening on /, 0)).slice("listening on ".length)}`)
  return { accountId, ownerEmail: OWNER_EMAIL, api, brandId: brand.id, receiver }
}
