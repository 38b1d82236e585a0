import type { SignedIn } from "../../people/People.js"
import { roleLabel } from "../../people/Roles.js"
import { Layout } from "../Layout.js"
import { AttentionList } from "./AttentionList.js"
import type { Attention } from "./AttentionQuery.js"

/** `/console`: who is signed in, where, what their role lets them do, and what needs attention now. */
export const homePage = (person: SignedIn, attention: Attention) => (
  <Layout title="Console" person={person} current="/console">
    <h1 safe>{person.workspaceName}</h1>
    <div class="card">
      <p>
        Signed in as <strong safe>{person.email}</strong>, <span>{roleLabel(person.role)}</span> of this workspace.
      </p>
      <p class="muted">
        {person.role === "member"
          ? "Members see everything and change nothing."
          : person.role === "operations"
          ? "Operations may do what an API key with every permission may."
          : "As owner you may do everything, including buying, keeping and dropping renders."}
      </p>
    </div>
    <AttentionList attention={attention} />
  </Layout>
)
