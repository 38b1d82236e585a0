import { LINK_TTL_MS } from "../people/People.js"
import { Layout } from "./Layout.js"

const hiddenNext = (next: string | undefined) =>
  next === undefined ? "" : <input type="hidden" name="next" value={next} />

/** `GET /console/sign-in`: the form (CONTRACT: field `Email`, button `Send sign-in link`). */
export const signInPage = (options: { readonly next?: string | undefined; readonly notice?: string | undefined }) => (
  <Layout title="Sign in" narrow>
    <h1>Sign in</h1>
    {options.notice === undefined ? "" : <p class="notice" role="status" safe>{options.notice}</p>}
    <div class="card">
      <form method="post" action="/console/sign-in">
        {hiddenNext(options.next)}
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" />
        <p class="muted">We email you a link that signs you in. It works once, for 15 minutes.</p>
        <button type="submit">Send sign-in link</button>
      </form>
    </div>
  </Layout>
)

/** The answer to the form, the same whether or not the address belongs to anyone. */
export const linkSentPage = (email: string) => (
  <Layout title="Check your email" narrow>
    <h1>Check your email</h1>
    <div class="card" role="status">
      <p>
        If <strong safe>{email}</strong>{" "}
        belongs to a clipwright workspace, a sign-in link is on its way to it. The link works once, for{" "}
        {LINK_TTL_MS / 60_000} minutes.
      </p>
      <p>
        <a href="/console/sign-in">Ask for another link</a>
      </p>
    </div>
  </Layout>
)

/** Opening the emailed link: only pressing `Continue` signs in, as mail scanners open links too. */
export const continuePage = (token: string) => (
  <Layout title="Continue signing in" narrow>
    <h1>Sign in to clipwright</h1>
    <div class="card">
      <form method="post" action={`/console/sign-in/${encodeURIComponent(token)}`}>
        <p>Press Continue to sign in on this browser.</p>
        <button type="submit">Continue</button>
      </form>
    </div>
  </Layout>
)

/** An expired, used or unknown link. */
export const deadLinkPage = () => (
  <Layout title="Sign-in link expired or used" narrow>
    <h1>This sign-in link has expired or was already used</h1>
    <div class="card">
      <p>A sign-in link works once, for 15 minutes. Ask for a new one and use the newest email.</p>
      <p>
        <a href="/console/sign-in">Ask for a new sign-in link</a>
      </p>
    </div>
  </Layout>
)

export const refusedPage = (title: string, message: string) => (
  <Layout title={title} narrow>
    <h1 safe>{title}</h1>
    <p class="notice error" role="alert" safe>{message}</p>
    <p>
      <a href="/console">Back to the console</a>
    </p>
  </Layout>
)
