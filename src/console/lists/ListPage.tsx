import type { SignedIn } from "../../people/People.js"
import type { Queue } from "../../queues/PostList.js"
import { Layout } from "../Layout.js"
import { listenersText } from "./ListsPage.js"
import { PackageTable } from "./PackageTable.js"
import { ScheduleForm, type ScheduleFormProps } from "./ScheduleForm.js"

export interface ListPageProps {
  readonly person: SignedIn
  readonly queue: Queue
  readonly zone: string
  readonly canAct: boolean
  readonly notice?: string | undefined
  readonly form: Omit<ScheduleFormProps, "zone" | "action">
}

/** `/console/lists/{id}`: one list's posts with `Cancel`, and the form scheduling another (owner and Operations). */
export const listPage = ({ canAct, form, notice, person, queue, zone }: ListPageProps) => (
  <Layout title={queue.name} person={person} current="/console/lists">
    <p>
      <a href="/console/lists">All post lists</a>
    </p>
    <h1 class="wrap" safe>{queue.name}</h1>
    {notice === undefined ? "" : <p class="notice" role="status" safe>{notice}</p>}
    <p class="muted" safe>
      {`${queue.enabled ? "On" : "Switched off: its posts wait"}. ${listenersText(queue)} Times are in ${zone}.`}
    </p>
    <section class="card" aria-labelledby="posts-heading">
      <h2 id="posts-heading">Posts</h2>
      <PackageTable queueId={queue.id} packages={queue.posts} zone={zone} canAct={canAct} />
    </section>
    {canAct
      ? <ScheduleForm {...form} zone={zone} action={`/console/lists/${encodeURIComponent(queue.id)}/packages`} />
      : <p class="muted">Members see the lists; the owner and Operations schedule and cancel posts.</p>}
  </Layout>
)
