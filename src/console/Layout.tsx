import type * as Html from "@kitajs/html"
import type { SignedIn } from "../people/People.js"
import { roleLabel } from "../people/Roles.js"
import { ASSETS } from "./ConsoleAssets.js"

export interface NavItem {
  readonly href: string
  readonly label: string
}

/** The console's sections, in the order the navigation shows them; each page area adds its own entry here. */
export const CONSOLE_NAV: ReadonlyArray<NavItem> = [
  { href: "/console", label: "Home" },
  { href: "/console/pipeline", label: "Pipeline" },
  { href: "/console/approvals", label: "Approvals" },
  { href: "/console/deliveries", label: "Deliveries" },
  { href: "/console/calendar", label: "Calendar" },
  { href: "/console/events", label: "Events" },
  { href: "/console/lists", label: "Lists" },
  { href: "/console/exports", label: "Exports" },
  { href: "/console/workspace", label: "Workspace" }
]

/** htmx settings: no eval and no injected indicator style, so the strict CSP holds (scripts and styles from files). */
const HTMX_CONFIG = JSON.stringify({ allowEval: false, includeIndicatorStyles: false, selfRequestsOnly: true })

const Head = ({ title }: { readonly title: string }) => (
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width,initial-scale=1" />
    <meta name="htmx-config" content={HTMX_CONFIG} />
    <title safe>{`${title} · clipwright`}</title>
    <link rel="stylesheet" href={ASSETS.css} />
    <script src={ASSETS.htmx} defer></script>
  </head>
)

/** The workspace switcher (only for a person in several), who is signed in, and `Sign out`. */
const Header = ({ person }: { readonly person: SignedIn }) => (
  <header class="top">
    <a class="brand" href="/console">clipwright</a>
    {person.memberships.length > 1
      ? (
        <form method="post" action="/console/workspace">
          <label for="workspace-switch" class="visually-hidden">Workspace</label>
          <select id="workspace-switch" name="workspaceId">
            {person.memberships.map((m) => (
              <option value={m.workspaceId} selected={m.workspaceId === person.workspaceId} safe>
                {`${m.workspaceName} (${roleLabel(m.role)})`}
              </option>
            ))}
          </select>
          <button type="submit" class="quiet">Switch</button>
        </form>
      )
      : <span safe>{`${person.workspaceName} (${roleLabel(person.role)})`}</span>}
    <form method="post" action="/console/sign-out">
      <span class="muted" safe>{person.email}</span>
      <button type="submit" class="quiet">Sign out</button>
    </form>
  </header>
)

const Nav = ({ current }: { readonly current: string }) => (
  <nav class="main" aria-label="Console">
    <ul>
      {CONSOLE_NAV.map((item) => (
        <li>
          <a href={item.href} aria-current={item.href === current ? "page" : undefined} safe>{item.label}</a>
        </li>
      ))}
    </ul>
  </nav>
)

export interface LayoutProps {
  readonly title: string
  /** The signed-in person; none on the sign-in pages. */
  readonly person?: SignedIn | undefined
  /** The page's own address, marked in the navigation. */
  readonly current?: string | undefined
  readonly narrow?: boolean | undefined
  readonly children?: Html.Children
}

/** Every console page: the head (our stylesheet and htmx, nothing inline), header and navigation, the page's own main. */
export const Layout = ({ children, current, narrow, person, title }: LayoutProps) =>
  "<!doctype html>" + (
    <html lang="en">
      <Head title={title} />
      <body>
        <a class="skip" href="#main">Skip to content</a>
        {person === undefined ?
          (
            <header class="top">
              <span class="brand">clipwright</span>
            </header>
          ) :
          (
            <>
              <Header person={person} />
              <Nav current={current ?? ""} />
            </>
          )}
        <main id="main" class={narrow === true ? "narrow" : undefined}>
          {children}
        </main>
      </body>
    </html>
  )
