/**
 * A stand-in for PayBright's promotional widget script (`/dist/sdk.js?public_key=…&financedamount=…`)
 * for storefront work without PayBright: it defines `pb_prequalify_init({ lang })`, as the real
 * script does, and draws into `.paybright-widget-container` a box that says it is the simulator's,
 * with the amount and public key it was loaded with. It computes no offer.
 */
export function promotionalWidgetScript(query: URLSearchParams): string {
  const settings = {
    publicKey: query.get("public_key") ?? "",
    amount: (query.get("financedamount") ?? "").replace(/^\$/, ""),
  }
  return `(function () {
  var settings = ${JSON.stringify(settings).replace(/</g, "\\u003c")};
  window.pb_prequalify_init = function (options) {
    var french = options && options.lang === "fr";
    var text = settings.publicKey
      ? (french ? "Widget PayBright (simulateur) : financez " : "PayBright widget (simulator): finance ") + settings.amount + " $ · " + settings.publicKey
      : (french ? "Widget PayBright : clé publique manquante" : "PayBright widget: no public key");
    document.querySelectorAll(".paybright-widget-container").forEach(function (container) {
      container.textContent = text;
      container.setAttribute("data-simulator-widget", settings.publicKey ? "ready" : "no-key");
    });
  };
})();
`
}
