import { formWithButton, submit } from "../../test-support/html-form"

/**
 * What a shopper's browser does with `data.redirect`: post the signed form to the lender, click
 * a button on the application page, and follow the redirect back. Real HTTP, no shortcuts.
 */
export type Decision = "approve" | "decline" | "leave"

export async function submitApplication(
  redirect: { url: string; method: string; fields: Record<string, string> },
  decision: Decision = "approve"
): Promise<{ status: number; location?: string; page?: string }> {
  const application = await submit({ action: redirect.url, method: redirect.method, fields: redirect.fields })
  if (application.status === 303 || application.status === 302) {
    return { status: application.status, location: application.headers.get("location") ?? undefined }
  }
  const page = await application.text()
  if (application.status !== 200 || !page.includes(`id="${decision}"`)) {
    return { status: application.status, page }
  }
  // The shopper clicks the decision's button: its form, posted as the browser would.
  const answer = await submit(formWithButton(page, decision, redirect.url))
  return { status: answer.status, location: answer.headers.get("location") ?? undefined }
}

/** Follows one redirect the way a browser would, without following the next one. */
export async function follow(location: string): Promise<{ status: number; location?: string; body: string }> {
  const response = await fetch(location, { redirect: "manual" })
  return {
    status: response.status,
    location: response.headers.get("location") ?? undefined,
    body: await response.text(),
  }
}
