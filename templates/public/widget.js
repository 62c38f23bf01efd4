{% autoescape off %}/* Aceh RAG public chat widget.
 * Embed on any page:  <script src="https://<this server>/widget.js" defer></script>
 * Options (attributes of that script tag): data-lang="id|en", data-open="true".
 * The page's origin must be listed in ACEH_RAG_PUBLIC_CHAT__ALLOWED_ORIGINS unless it is this server.
 */
(function (SERVER) {
  var vendor = {};
{{ vendor_modules }}
{% verbatim %}
  "use strict";
  if (window.__acehRagWidget) return;
  window.__acehRagWidget = true;

  var script = document.currentScript;
  var apiBase = (script && script.getAttribute("data-api-base")) ||
    (script && script.src ? new URL(script.src, location.href).origin : location.origin);
  var storageKey = "acehrag-chat:" + apiBase;
  var MAX_TRANSCRIPT = 40;

{% endverbatim %}{% include "public/widget_text.js" %}{% verbatim %}

  // -- state kept across reloads --------------------------------------------------------
  // The conversation belongs to the tab (sessionStorage: a second tab starts its own); the
  // language and the visitor id belong to the visitor (localStorage, shared by every tab).

  var VISITOR_KEYS = ["lang", "visitorId"];
  function read(storage) {
    try { return JSON.parse(window[storage].getItem(storageKey)) || {}; } catch (e) { return {}; }
  }
  function write(storage, value) {
    try { window[storage].setItem(storageKey, JSON.stringify(value)); } catch (e) { /* storage full or blocked: keep going */ }
  }
  function load() {
    var visitor = read("localStorage"), tab = read("sessionStorage");
    VISITOR_KEYS.forEach(function (name) { if (visitor[name] != null) tab[name] = visitor[name]; });
    return tab;
  }
  var state = load();
  state.transcript = Array.isArray(state.transcript) ? state.transcript : [];
  var scriptLang = script && script.getAttribute("data-lang");
  state.lang = TEXT[state.lang] ? state.lang : (TEXT[scriptLang] ? scriptLang : "id");

  function save() {
    state.transcript = state.transcript.slice(-MAX_TRANSCRIPT);
    var visitor = {}, tab = {};
    Object.keys(state).forEach(function (name) {
      (VISITOR_KEYS.indexOf(name) >= 0 ? visitor : tab)[name] = state[name];
    });
    write("localStorage", visitor);
    write("sessionStorage", tab);
  }
  save();  // also drops a conversation an older widget left in the shared storage
  function t() { return TEXT[state.lang]; }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return values[key] != null ? values[key] : ""; });
  }

  // -- DOM ------------------------------------------------------------------------------

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs[name];
      else if (name.slice(0, 2) === "on") node.addEventListener(name.slice(2), attrs[name]);
      else if (attrs[name] != null && attrs[name] !== false) node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

{% endverbatim %}{% include "public/widget_style.js" %}{% verbatim %}

  var ICON_CHAT = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/></svg>';
  var ICON_CLOSE = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18"/></svg>';
  var ICON_UP = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M7 10v11H3V10h4zM7 10l4-8c1.7 0 3 1.3 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.3 8A2 2 0 0 1 18.2 21H7"/></svg>';
  var ICON_DOWN = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M17 14V3h4v11h-4zM17 14l-4 8c-1.7 0-3-1.3-3-3v-4H4.5a2 2 0 0 1-2-2.3l1.3-8A2 2 0 0 1 5.8 3H17"/></svg>';
  var ICON_COPY = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="9" y="9" width="12" height="12" rx="2"/><path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1"/></svg>';
  var ICON_NEW = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M12 5v14M5 12h14"/></svg>';

  var host = el("div", { id: "acehrag-chat-widget" });
  var shadow = host.attachShadow({ mode: "open" });
  var root = el("div", { "class": "root" });
  if (typeof CSSStyleSheet === "function" && "adoptedStyleSheets" in shadow && CSSStyleSheet.prototype.replaceSync) {
    // A constructed sheet is not an inline <style>, so a host page's strict CSP does not block it.
    var sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    shadow.adoptedStyleSheets = [sheet];
  } else {
    shadow.appendChild(el("style", { text: CSS }));
  }
  shadow.appendChild(root);

  var bubble = el("button", { "class": "bubble", type: "button", onclick: function () { setOpen(!state.open); } });
  bubble.innerHTML = ICON_CHAT;
  var title = el("strong", { text: SERVER.projectName });
  var subtitle = el("small");
  var langButton = el("button", { "class": "lang", type: "button", onclick: toggleLanguage });
  var newButton = el("button", { "class": "new", type: "button", onclick: newConversation });
  newButton.innerHTML = ICON_NEW;
  var closeButton = el("button", { "class": "close", type: "button", onclick: function () { setOpen(false); } });
  closeButton.innerHTML = ICON_CLOSE;
  var messages = el("div", { "class": "messages", role: "log", "aria-live": "polite" });
  var input = el("textarea", { rows: "1", maxlength: String(SERVER.maxQuestionChars), onkeydown: onKey, oninput: onInput });
  var sendButton = el("button", { type: "submit", "class": "send" });
  var form = el("form", { onsubmit: function (event) { event.preventDefault(); send(input.value); } }, [input, sendButton]);
  var disclaimer = el("span");
  var counter = el("span");
  var panel = el("section", { "class": "panel", role: "dialog", hidden: "hidden" }, [
    el("header", {}, [el("div", { "class": "titles" }, [title, subtitle]), langButton, newButton, closeButton]),
    messages, form, el("div", { "class": "foot" }, [disclaimer, counter])
  ]);
  root.appendChild(panel);
  root.appendChild(bubble);

  // -- rendering ------------------------------------------------------------------------

  function labels() {
    var text = t();
    root.setAttribute("lang", state.lang);
    subtitle.textContent = text.subtitle;
    bubble.setAttribute("aria-label", state.open ? text.close : text.open);
    panel.setAttribute("aria-label", SERVER.projectName);
    langButton.textContent = text.langToggle;
    langButton.setAttribute("aria-label", text.langLabel);
    langButton.setAttribute("title", text.langLabel);
    newButton.setAttribute("aria-label", text.newChat);
    newButton.setAttribute("title", text.newChat);
    closeButton.setAttribute("aria-label", text.close);
    closeButton.setAttribute("title", text.close);
    input.setAttribute("placeholder", text.placeholder);
    input.setAttribute("aria-label", text.placeholder);
    sendButton.textContent = text.send;
    disclaimer.textContent = text.disclaimer;
    onInput();
  }

{% endverbatim %}{% include "public/widget_markdown.js" %}{% verbatim %}
  function sourceUrl(source) { return apiBase + SERVER.sourcePath + encodeURIComponent(source.chunk_id); }

  function sourcesNode(sources, owner) {
    if (!sources || !sources.length) return null;
    var list = el("ol");
    sources.forEach(function (source, index) {
      var meta = [source.legal_reference, source.page_number != null ? t().page + " " + source.page_number : null]
        .filter(Boolean).join(" · ");
      var link = el("a", { "class": "title", href: sourceUrl(source), target: "_blank", rel: "noopener",
        text: source.document_title, title: source.document_title,
        onclick: function (event) { event.preventDefault(); toggleExcerpt(owner, index); } });
      list.appendChild(el("li", { "class": "source" }, [
        el("span", { "class": "n", text: "[" + (index + 1) + "]" }),
        el("span", {}, [link, meta ? el("span", { "class": "meta", text: meta }) : null])
      ]));
    });
    return el("div", { "class": "sources" }, [el("h4", { text: t().sources }), list]);
  }

  function toggleExcerpt(owner, index) {
    var item = owner.querySelectorAll("li.source")[index];
    if (!item) return;
    var shown = item.querySelector(".excerpt");
    if (shown) { shown.remove(); return; }
    var box = el("span", { "class": "excerpt", text: t().loadingSource });
    item.lastChild.appendChild(box);
    fetch(item.querySelector("a").href, { credentials: "omit" })
      .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); })
      .then(function (body) {
        // Passages keep their source markup (headings, bold); the excerpt shows plain text.
        var text = String(body.text || "").replace(/^#{1,6}\s+/gm, "").replace(/\*\*/g, "");
        box.textContent = text.length > 700 ? text.slice(0, 700) + "…" : text;
      })
      .catch(function () { box.textContent = t().sourceUnavailable; });
  }

  function errorText(entry) {
    var errors = t().errors;
    if (entry.code === "TOO_LONG") return fill(errors.TOO_LONG, { n: SERVER.maxQuestionChars });
    if (entry.code === "RATE_LIMITED") return fill(errors.RATE_LIMITED, { s: entry.retryAfter || 60 });
    return errors[entry.code] || errors.DEFAULT;
  }

  function entryNode(entry, isLast) {
    if (entry.role === "user") return [el("div", { "class": "msg user", text: entry.text })];
    if (entry.role === "error") return [el("div", { "class": "msg error", role: "alert", text: errorText(entry) })];
    var bubbleNode = el("div", { "class": "msg bot" });
    var body = el("div", { "class": "body" }, replyNodes(entry.text, entry.sources || [], bubbleNode));
    bubbleNode.appendChild(body);
    var sources = sourcesNode(entry.sources, bubbleNode);
    if (sources) bubbleNode.appendChild(sources);
    var actions = entry.conversationId && entry.turn != null ? feedbackNode(entry) : el("div", { "class": "feedback" });
    actions.appendChild(copyButton(entry, body, actions));
    bubbleNode.appendChild(actions);
    var nodes = [bubbleNode];
    if (isLast && entry.suggestions && entry.suggestions.length) {
      var box = el("div", { "class": "suggestions", "aria-label": t().suggestions });
      entry.suggestions.forEach(function (text) {
        box.appendChild(el("button", { type: "button", "class": "suggestion", text: text, onclick: function () { send(text); } }));
      });
      nodes.push(box);
    }
    return nodes;
  }

{% endverbatim %}{% include "public/widget_answer_tools.js" %}{% verbatim %}

{% endverbatim %}{% include "public/widget_turn.js" %}{% verbatim %}

  // -- controls -------------------------------------------------------------------------

  function onKey(event) {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send(input.value);
    }
  }

  function onInput() {
    input.style.height = "auto";
    input.style.height = Math.min(input.scrollHeight, 120) + "px";
    var n = input.value.length;
    counter.textContent = n > SERVER.maxQuestionChars * 0.8 ? fill(t().counter, { n: n, max: SERVER.maxQuestionChars }) : "";
  }

  function setOpen(open) {
    state.open = !!open;
    save();
    panel.hidden = !state.open;
    root.classList.toggle("open", state.open);
    bubble.setAttribute("aria-expanded", String(state.open));
    labels();
    if (state.open) {
      renderAll();
      input.focus();
    }
  }

  function toggleLanguage() {
    state.lang = state.lang === "id" ? "en" : "id";
    save();
    labels();
    renderAll();
  }

  function newConversation() {
    if (pending && pending.controller) pending.controller.abort();
    if (pending && pending.frame != null) cancelAnimationFrame(pending.frame);
    pending = null;
    messages.removeAttribute("aria-busy");
    setBusy(false);
    state.conversationId = null;
    state.sessionId = null;   // the server issues a fresh session with the next answer
    state.transcript = [];
    save();
    renderAll();
    input.focus();
  }

  function mount() {
    document.body.appendChild(host);
    labels();
    // data-open only decides the first visit; afterwards the visitor's own choice is kept.
    setOpen(typeof state.open === "boolean" ? state.open : !!(script && script.getAttribute("data-open") === "true"));
  }

  if (document.body) mount(); else document.addEventListener("DOMContentLoaded", mount);
{% endverbatim %}
})({{ server_json }});
{% endautoescape %}
