/**
 * The console's sign-in, as the owner does it: ask for a link on the sign-in page, and take it from the email, which
 * without SMTP_URL is an `.eml` in the outbox.
 */
import { textOf, waitForEmail } from "../support/outbox.js"

export const signInLink = async (nodeUrl: string, dataDir: string, email: string): Promise<string> => {
  // The form of http://localhost:8080/console/sign-in. The answer is the same whether or not the address belongs to
  // anyone; the email is written a moment later.
  const asked = await fetch(`${nodeUrl}/console/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }).toString()
  })
  if (!asked.ok) throw new Error(`the sign-in page answered ${asked.status}`)
  const eml = await waitForEmail(dataDir, "sign-in-", 30_000)
  // The link works once, for 15 minutes: opening it shows a page with a Continue button.
  const link = textOf(eml).match(/https?:\/\/\S+\/console\/sign-in\/[\w-]+/)?.[0]
  if (link === undefined) throw new Error(`no sign-in link in ${eml}`)
  return link
}
