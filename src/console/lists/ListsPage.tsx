import type { SignedIn } from "../../people/People.js"
import type { Queue } from "../../queues/PostList.js"
import { Layout } from "../Layout.js"
import { PackageTable } from "./PackageTable.js"

export const listenersText = (queue: Queue) =>
  queue.listeners.length === 0
    ? "No channel listens to this list: its posts make no jobs."
    : `Goes to ${queue.listeners.map((l) => `${l.channelName} (${l.brandName})`).join(", ")}.`

/** `/console/lists`: every post list with its posts, their state, outcome and due time. */
export const listsPage = (
  { person, queues, zone }: {
    readonly person: SignedIn
    readonly queues: ReadonlyArray<Queue>
    readonly zone: string
  }
) => (
  <Layout title="Post lists" person={person} current="/console/lists">
    <h1>Post lists</h1>
    <p class="muted" safe>{`Times are in ${zone} (the calendar's time zone).`}</p>
    {queues.length === 0 ? <p class="card">This workspace has no post list yet.</p> : ""}
    {queues.map((queue) => (
      <section class="card" aria-labelledby={`list-${queue.id}`}>
        <h2 id={`list-${queue.id}`}>
          <a href={`/console/lists/${encodeURIComponent(queue.id)}`} safe>{queue.name}</a>
          {queue.enabled ? "" : <span class="muted">(switched off)</span>}
        </h2>
        <p class="muted" safe>{listenersText(queue)}</p>
        <PackageTable queueId={queue.id} packages={queue.posts} zone={zone} canAct={false} />
      </section>
    ))}
  </Layout>
)
