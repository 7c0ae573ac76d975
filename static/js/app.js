// Small progressive enhancements; every page works without this file. No inline handlers
// anywhere (the Content-Security-Policy forbids them): behaviour hangs on data-* attributes.
(function () {
  "use strict";

  // --- Copy buttons: <button data-copy="text" aria-controls="field-id"> -------------------
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const text = button.getAttribute("data-copy");
    const done = () => {
      const old = button.textContent;
      button.textContent = "Copied";
      setTimeout(() => { button.textContent = old; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, () => {});
    } else {
      const field = document.getElementById(button.getAttribute("aria-controls"));
      if (field) { field.select(); document.execCommand("copy"); done(); }
    }
  });

  // --- Print buttons: <button data-print> --------------------------------------------------
  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-print]")) window.print();
  });

  // --- Refused HTMX requests show their message in place ----------------------------------
  // htmx leaves 4xx and 5xx answers unswapped, so a refusal would vanish. Datapad answers a
  // refused HTMX request with a fragment made for its target (the form with its errors, or an
  // alert), so swap it; a server error or a whole page becomes a short alert instead.
  const MESSAGES = {
    403: "You are not allowed to do that.",
    404: "That is no longer there. Reload the page.",
    429: "Too many requests; wait a moment and try again.",
  };
  function alertFragment(text) {
    const box = document.createElement("div");
    box.className = "alert error";
    box.setAttribute("role", "alert");
    box.tabIndex = -1;
    box.textContent = text;
    return box.outerHTML;
  }
  document.addEventListener("htmx:beforeSwap", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr || xhr.status < 400) return;
    event.detail.shouldSwap = true;
    event.detail.isError = false;
    const body = xhr.responseText || "";
    if (xhr.status >= 500) {
      event.detail.serverResponse = alertFragment(
        "Something went wrong on the server; nothing was changed. Try again in a moment.");
    } else if (!body.trim() || /<html[\s>]/i.test(body)) {
      event.detail.serverResponse = alertFragment(
        MESSAGES[xhr.status] || "That was refused; nothing was changed.");
    }
  });
  document.addEventListener("htmx:sendError", (event) => {
    const target = event.detail.target;
    if (target && target.id === "roll-area") {
      target.innerHTML = alertFragment("No connection to Datapad; nothing was rolled. Try again.");
    }
  });

  // --- The roll panel: a modal dialog on the sheet -----------------------------------------
  // A trait button loads the panel into #roll-area (hx-target); the dialog then opens and
  // takes focus. Escape or ✕ closes it and focus returns to the trait that opened it. After a
  // roll the result takes focus; after a refusal, the message.
  let opener = null;
  const rollDialog = () => document.getElementById("roll-dialog");

  document.addEventListener("click", (event) => {
    const trait = event.target.closest("button.trait");
    if (trait) opener = trait;
    const dialog = rollDialog();
    if (!dialog || !dialog.open) return;
    const close = event.target.closest("[data-close-roll]");
    if ((close && dialog.contains(close)) || event.target === dialog) {
      event.preventDefault();  // ✕ is a link back to the sheet when there is no dialog
      dialog.close();
    }
  });

  document.addEventListener("htmx:afterSwap", (event) => {
    const area = event.detail.target;
    const dialog = rollDialog();
    if (!dialog || !area || area.id !== "roll-area") return;
    if (!dialog.open) dialog.showModal();
    const focus = area.querySelector("#roll-result")
      || area.querySelector("[role=alert]")
      || area.querySelector("input:not([type=hidden]), select, textarea");
    if (focus) focus.focus();
  });

  // "close" does not bubble: listen in the capture phase.
  document.addEventListener("close", (event) => {
    const dialog = event.target;
    if (!dialog || dialog.id !== "roll-dialog") return;
    dialog.querySelector("#roll-area").replaceChildren();
    if (opener && document.contains(opener)) opener.focus();
  }, true);
})();

// --- The encounter's log: a step's answer and a poll that crossed it can both bring the same
// new step; keep one of each, newest first, and no more than the page shows. ----------------
document.addEventListener("htmx:afterSettle", () => {
  const list = document.getElementById("enc-log-list");
  if (!list) return;
  const seen = new Set();
  for (const item of Array.from(list.children)) {
    const step = item.getAttribute("data-step");
    if (item.id === "enc-log-empty" && list.children.length > 1) item.remove();
    else if (step && seen.has(step)) item.remove();
    else if (step) seen.add(step);
  }
  while (list.children.length > 10) list.lastElementChild.remove();
});

// --- The GM's attack form starts empty again once an attack is announced, so the last
// volley's "also firing" and "combining" ticks never ride along on the next one. ----------
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  if (form && form.matches && form.matches("form.attack-form") && event.detail.successful) {
    form.reset();
  }
});

// --- Confirmations before destructive actions: <form data-confirm="Remove …?"> -------------
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
});
