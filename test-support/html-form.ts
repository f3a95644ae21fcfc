/** A form as a browser would submit it: where, how, and the hidden fields it carries. */
export type HtmlForm = { action: string; method: string; fields: Record<string, string> }

/**
 * Finds the form holding the button with `id` in a page and reads it the way a browser does when
 * that button is clicked: its action (resolved against the page's URL), its method and its hidden
 * inputs. Enough for the simulator's application page; not a general HTML parser.
 */
export function formWithButton(html: string, buttonId: string, pageUrl: string): HtmlForm {
  const forms = html.match(/<form\b[\s\S]*?<\/form>/gi) ?? []
  const form = forms.find((candidate) => new RegExp(`<button\\b[^>]*\\bid="${buttonId}"`, "i").test(candidate))
  if (!form) throw new Error(`the page has no #${buttonId} button`)
  const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`, "i").exec(tag)?.[1]
  const opening = /<form\b[^>]*>/i.exec(form)![0]
  const fields: Record<string, string> = {}
  for (const input of form.match(/<input\b[^>]*>/gi) ?? []) {
    const name = attribute(input, "name")
    if (name) fields[decode(name)] = decode(attribute(input, "value") ?? "")
  }
  return {
    action: new URL(decode(attribute(opening, "action") ?? ""), pageUrl).toString(),
    method: (attribute(opening, "method") ?? "GET").toUpperCase(),
    fields,
  }
}

function decode(text: string) {
  return text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, entity: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[entity]!
  )
}

/** Submits a form as a browser would (urlencoded), without following the redirect it answers. */
export function submit(form: HtmlForm): Promise<Response> {
  return fetch(form.action, {
    method: form.method,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form.fields).toString(),
    redirect: "manual",
  })
}
