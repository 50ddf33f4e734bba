// Runs in the /docs page after Scalar's script. It repairs the parts of Scalar's markup that
// assistive technology cannot read (axe's serious and critical findings) without hiding any of
// Scalar's features: on the first render and whenever Scalar renders again (a MutationObserver,
// at most one pass per frame). Each repair is idempotent: on repaired markup it changes nothing,
// so its own changes start no further pass.
(() => {
  "use strict";

  const set = (element, name, value) => {
    if (element.getAttribute(name) !== value) element.setAttribute(name, value);
  };
  const unset = (element, name) => {
    if (element.hasAttribute(name)) element.removeAttribute(name);
  };
  const visibleText = (element) => element.textContent.replace(/\s+/g, " ").trim();

  /** [selector, repair of each element it matches] */
  const REPAIRS = [
    // The sidebar marks its current item with aria-selected, which a button cannot take
    // (aria-allowed-attr); aria-current says the same of a link-like item. Scalar styles the item
    // by class, and sets aria-selected again when the current item changes.
    [
      "button[aria-selected]:not([role])",
      (button) => {
        if (button.getAttribute("aria-selected") === "true") set(button, "aria-current", "page");
        else unset(button, "aria-current");
        unset(button, "aria-selected");
      },
    ],
    // The search button has role="search", a landmark, which takes no name from its content
    // (button-name): without it, it is a button named by its own text ("Open Search").
    ['button[role="search"]', (button) => unset(button, "role")],
    // The copy buttons of code blocks show an icon; their "Copy" text is hidden until hovered.
    ["button.scalar-code-copy, button.code-copy", (button) => set(button, "aria-label", "Copy to clipboard")],
    // The Client Libraries tablist holds, beside its tabs, the "More" button that opens the list
    // of every client (aria-required-children): it is the tab of the client chosen from that list,
    // selected when Scalar marks it active.
    [
      ".client-libraries-list .client-libraries__select",
      (button) => {
        set(button, "role", "tab");
        set(button, "aria-selected", String(button.classList.contains("client-libraries__active")));
      },
    ],
    // A tag's list of endpoints scrolls inside its card, and its entries are not focusable
    // (scrollable-region-focusable): the list itself takes the focus, under its label.
    [
      "ul.endpoints",
      (list) => {
        set(list, "tabindex", "0");
        if (!list.hasAttribute("aria-label")) set(list, "aria-label", "Endpoints");
      },
    ],
    // "Show More" is labelled "Show all <tag> endpoints", which does not hold the visible words
    // (label-content-name-mismatch): the label begins with them.
    [
      "button.show-more[aria-label]",
      (button) => {
        const shown = visibleText(button);
        const label = button.getAttribute("aria-label");
        if (shown && !label.toLowerCase().includes(shown.toLowerCase())) set(button, "aria-label", `${shown}: ${label.replace(/^show\s+/i, "")}`);
      },
    ],
    // The filter at the top of a drop-down list (the "More" list of clients) has no label (label).
    [
      'input[role="combobox"][aria-controls^="scalar-combobox-items"]:not([aria-label]):not([aria-labelledby])',
      (input) => set(input, "aria-label", "Filter"),
    ],
    // The search dialog's combobox does not say whether its list of results is shown
    // (aria-required-attr): it is while the list it controls is on the page.
    [
      'input[role="combobox"][aria-controls]',
      (input) => set(input, "aria-expanded", String(document.getElementById(input.getAttribute("aria-controls")) !== null)),
    ],
  ];

  const repair = () => {
    for (const [selector, fix] of REPAIRS) for (const element of document.querySelectorAll(selector)) fix(element);
  };

  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      repair();
    });
  };
  // The body, not only Scalar's root: its dialogs and popovers are rendered outside it.
  new MutationObserver(schedule).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["aria-selected", "role", "class", "aria-label", "aria-controls"],
  });
  schedule();
})();
