/**
 * What a shopper's browser does with `data.redirect`: post the signed form to the lender, click
 * a button on the application page, and follow the redirect back. Real HTTP, no shortcuts.
 */
export type Decision = "approve" | "decline" | "leave"

export async function submitApplication(
  redirect: { url: string; method: string; fields: Record<string, string> },
  decision: Decision = "approve"
): Promise<{ status: number; location?: string; page?: string }> {
  const application = await fetch(redirect.url, {
    method: redirect.method,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(redirect.fields).toString(),
    redirect: "manual",
  })
  if (application.status === 303 || application.status === 302) {
    return { status: application.status, location: application.headers.get("location") ?? undefined }
  }
  const page = await application.text()
  const id = /name="application_id"\s+value="([^"]+)"/.exec(page)?.[1]
  if (application.status !== 200 || !id) {
    return { status: application.status, page }
  }
  const answer = await fetch(new URL("/CheckOut/decision", redirect.url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ application_id: id, decision }).toString(),
    redirect: "manual",
  })
  return { status: answer.status, location: answer.headers.get("location") ?? undefined }
}

/** Follows one redirect the way a browser would, without following the next one. */
export async function follow(location: string): Promise<{ status: number; location?: string; body: string }> {
  const response = await fetch(location, { redirect: "manual" })
  return { status: response.status, location: response.headers.get("location") ?? undefined, body: await response.text() }
}
