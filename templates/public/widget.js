{% autoescape off %}/* Aceh RAG public chat widget.
 * Embed on any page:  <script src="https://<this server>/widget.js" defer></script>
 * Options (attributes of that script tag): data-lang="id|en", data-open="true".
 * The page's origin must be listed in ACEH_RAG_PUBLIC_CHAT__ALLOWED_ORIGINS unless it is this server.
 */
(function (SERVER) {
{% verbatim %}
  "use strict";
  if (window.__acehRagWidget) return;
  window.__acehRagWidget = true;

  var script = document.currentScript;
  var apiBase = (script && script.getAttribute("data-api-base")) ||
    (script && script.src ? new URL(script.src, location.href).origin : location.origin);
  var storageKey = "acehrag-chat:" + apiBase;
  var MAX_TRANSCRIPT = 40;

  var TEXT = {
    id: {
      subtitle: "Jawaban dari dokumen publik Pemerintah Aceh",
      open: "Buka obrolan", close: "Tutup obrolan", newChat: "Percakapan baru",
      placeholder: "Tulis pertanyaan Anda…", send: "Kirim",
      greeting: "Halo! Tanyakan tentang qanun, peraturan gubernur, atau layanan informasi publik Aceh. Setiap jawaban disertai sumbernya.",
      sources: "Sumber", page: "hlm.", suggestions: "Pertanyaan lanjutan",
      langToggle: "EN", langLabel: "Switch to English",
      disclaimer: "Jawaban otomatis dari dokumen publik; periksa sumber resminya.",
      loadingSource: "Memuat kutipan…", sourceUnavailable: "Kutipan tidak tersedia.",
      helpful: "Jawaban membantu", notHelpful: "Jawaban tidak membantu", feedbackThanks: "Terima kasih atas masukan Anda.",
      feedbackComment: "Apa yang kurang tepat? (opsional)", feedbackSend: "Kirim masukan", feedbackFailed: "Masukan tidak terkirim.",
      counter: "{n}/{max}",
      phases: { start: "Menghubungkan…", searching: "Mencari dokumen…", reading: "Membaca pasal…", finalizing: "Hampir selesai…" },
      errors: {
        RATE_LIMITED: "Terlalu banyak pertanyaan dalam waktu singkat. Coba lagi dalam {s} detik.",
        BAD_REQUEST: "Pertanyaan tidak dapat diproses. Periksa kembali pertanyaan Anda.",
        TOO_LONG: "Pertanyaan terlalu panjang (maksimal {n} karakter).",
        NOT_FOUND: "Percakapan sebelumnya tidak ditemukan. Kirim ulang pertanyaan untuk memulai percakapan baru.",
        FORBIDDEN: "Obrolan ini tidak diizinkan di situs ini.",
        NETWORK: "Koneksi terputus. Periksa jaringan Anda lalu coba lagi.",
        CANCELLED: "Jawaban dibatalkan.",
        DEFAULT: "Maaf, terjadi kesalahan. Silakan coba lagi."
      }
    },
    en: {
      subtitle: "Answers from the Aceh Government's public documents",
      open: "Open chat", close: "Close chat", newChat: "New conversation",
      placeholder: "Type your question…", send: "Send",
      greeting: "Hello! Ask about qanun, governor regulations or Aceh's public information services. Every answer cites its sources.",
      sources: "Sources", page: "p.", suggestions: "Follow-up questions",
      langToggle: "ID", langLabel: "Ganti ke Bahasa Indonesia",
      disclaimer: "Automated answers from public documents; check the official source.",
      loadingSource: "Loading excerpt…", sourceUnavailable: "Excerpt unavailable.",
      helpful: "Helpful answer", notHelpful: "Unhelpful answer", feedbackThanks: "Thank you for your feedback.",
      feedbackComment: "What was wrong? (optional)", feedbackSend: "Send feedback", feedbackFailed: "Feedback was not sent.",
      counter: "{n}/{max}",
      phases: { start: "Connecting…", searching: "Searching documents…", reading: "Reading the article…", finalizing: "Almost done…" },
      errors: {
        RATE_LIMITED: "Too many questions in a short time. Try again in {s} seconds.",
        BAD_REQUEST: "The question could not be processed. Please check it and try again.",
        TOO_LONG: "The question is too long (at most {n} characters).",
        NOT_FOUND: "The previous conversation was not found. Send your question again to start a new one.",
        FORBIDDEN: "This chat is not allowed on this site.",
        NETWORK: "The connection was lost. Check your network and try again.",
        CANCELLED: "The answer was cancelled.",
        DEFAULT: "Sorry, something went wrong. Please try again."
      }
    }
  };

  // -- state kept across reloads --------------------------------------------------------

  function load() {
    try { return JSON.parse(localStorage.getItem(storageKey)) || {}; } catch (e) { return {}; }
  }
  var state = load();
  state.transcript = Array.isArray(state.transcript) ? state.transcript : [];
  var scriptLang = script && script.getAttribute("data-lang");
  state.lang = TEXT[state.lang] ? state.lang : (TEXT[scriptLang] ? scriptLang : "id");

  function save() {
    state.transcript = state.transcript.slice(-MAX_TRANSCRIPT);
    try { localStorage.setItem(storageKey, JSON.stringify(state)); } catch (e) { /* storage full or blocked: keep going */ }
  }
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

  var CSS = [
    ":host{all:initial}",
    "*{box-sizing:border-box}",
    ".root{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',sans-serif;color:#17231f}",
    ".bubble{position:fixed;right:20px;bottom:20px;width:60px;height:60px;border-radius:50%;border:0;cursor:pointer;",
    "background:#0f6b4f;color:#fff;box-shadow:0 6px 20px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center;z-index:2147483000}",
    ".bubble:hover{background:#0c5a42}.bubble:focus-visible{outline:3px solid #f2b705;outline-offset:2px}",
    ".bubble svg{width:28px;height:28px}",
    ".panel{position:fixed;right:20px;bottom:92px;width:390px;height:min(640px,calc(100vh - 112px));background:#fff;border-radius:16px;",
    "box-shadow:0 12px 40px rgba(0,0,0,.28);display:flex;flex-direction:column;overflow:hidden;z-index:2147483001}",
    ".panel[hidden]{display:none}",
    "header{display:flex;align-items:center;gap:6px;padding:12px 12px 12px 16px;background:#0f6b4f;color:#fff}",
    "header .titles{flex:1;min-width:0}header strong{display:block;font-size:16px}",
    "header small{display:block;font-size:12px;opacity:.85;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}",
    "header button{background:rgba(255,255,255,.14);color:#fff;border:0;border-radius:8px;height:32px;min-width:32px;padding:0 8px;cursor:pointer;font:600 13px system-ui,sans-serif}",
    "header button:hover{background:rgba(255,255,255,.26)}header button svg{width:16px;height:16px;vertical-align:middle}",
    ".messages{flex:1;overflow-y:auto;padding:14px;background:#f4f7f5;display:flex;flex-direction:column;gap:10px}",
    ".msg{max-width:88%;padding:10px 12px;border-radius:14px;white-space:pre-wrap;word-wrap:break-word;overflow-wrap:anywhere}",
    ".user{align-self:flex-end;background:#0f6b4f;color:#fff;border-bottom-right-radius:4px}",
    ".bot{align-self:flex-start;background:#fff;border:1px solid #dde6e1;border-bottom-left-radius:4px;white-space:normal}",
    ".bot p{margin:0 0 8px}.bot p:last-of-type{margin-bottom:0}.bot ul.items{margin:0 0 8px;padding-left:18px}",
    ".bot ul.items li{margin:2px 0}",
    ".error{align-self:flex-start;background:#fff4f2;border:1px solid #f3c2b8;color:#8a2a17;border-bottom-left-radius:4px}",
    ".cite{font-size:11px;vertical-align:super;line-height:0;color:#0f6b4f;text-decoration:none;font-weight:700;padding:0 1px}",
    ".status{display:flex;align-items:center;gap:8px;color:#4a5a54;font-size:13px;font-style:italic}",
    ".dots{display:inline-flex;gap:3px}.dots i{width:6px;height:6px;border-radius:50%;background:#0f6b4f;opacity:.35;animation:blink 1.2s infinite}",
    ".dots i:nth-child(2){animation-delay:.2s}.dots i:nth-child(3){animation-delay:.4s}",
    "@keyframes blink{0%,80%,100%{opacity:.25}40%{opacity:1}}",
    "@media (prefers-reduced-motion:reduce){.dots i{animation:none;opacity:.7}}",
    ".feedback{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin:8px 0 0;white-space:normal;font-size:13px}",
    ".feedback button.rate{border:1px solid #cfdad5;background:#fff;color:#0f6b4f;border-radius:8px;padding:3px 7px;cursor:pointer;line-height:0}",
    ".feedback button.rate svg{width:16px;height:16px}",
    ".feedback button.rate[aria-pressed=true]{background:#0f6b4f;border-color:#0f6b4f;color:#fff}",
    ".feedback textarea{flex-basis:100%;min-height:44px;font:13px system-ui,sans-serif;border:1px solid #cfdad5;border-radius:8px;padding:6px}",
    ".feedback .send-feedback{border:0;background:#0f6b4f;color:#fff;border-radius:8px;padding:4px 10px;cursor:pointer}",
    ".feedback .note{color:#4d5f58}",
    ".sources{margin:8px 0 0;padding:8px 0 0;border-top:1px solid #e6ece9;white-space:normal;font-size:13px}",
    ".sources h4,.suggestions h4{margin:0 0 4px;font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#5b6b65}",
    ".sources ol{margin:0;padding:0;list-style:none;display:flex;flex-direction:column;gap:6px}",
    ".sources li{display:flex;gap:6px}.sources .n{flex:none;font-weight:700;color:#0f6b4f}",
    ".sources a{color:#0b5a8a;text-decoration:underline;text-underline-offset:2px}",
    ".sources a.title{display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}",
    ".sources .meta{display:block;color:#5b6b65;font-size:12px}",
    ".excerpt{display:block;margin-top:4px;padding:6px 8px;background:#f4f7f5;border-left:3px solid #0f6b4f;color:#33423c;font-size:12px;white-space:pre-wrap}",
    ".suggestions{align-self:flex-start;max-width:92%;display:flex;flex-direction:column;gap:6px}",
    ".suggestions button{text-align:left;background:#e8f3ee;color:#0c4f3b;border:1px solid #b9dccd;border-radius:12px;padding:7px 10px;",
    "cursor:pointer;font:14px/1.35 system-ui,sans-serif}",
    ".suggestions button:hover{background:#d6ebe2}",
    "form{display:flex;gap:8px;align-items:flex-end;padding:10px;border-top:1px solid #e1e8e4;background:#fff}",
    "textarea{flex:1;resize:none;border:1px solid #c8d5cf;border-radius:12px;padding:9px 11px;font:15px/1.4 system-ui,sans-serif;max-height:120px;min-height:40px;color:#17231f}",
    "textarea:focus{outline:2px solid #0f6b4f;outline-offset:0;border-color:transparent}",
    "form button{background:#0f6b4f;color:#fff;border:0;border-radius:12px;height:40px;padding:0 14px;cursor:pointer;font:600 14px system-ui,sans-serif}",
    "form button:disabled{opacity:.5;cursor:default}",
    ".foot{display:flex;justify-content:space-between;gap:8px;padding:0 12px 8px;background:#fff;color:#6b7a74;font-size:11px}",
    "@media (max-width:480px){.panel{inset:0;width:100%;height:100%;height:100dvh;border-radius:0}",
    ".root.open .bubble{display:none}.msg{max-width:92%}.bubble{right:16px;bottom:16px}}"
  ].join("\n");

  var ICON_CHAT = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/></svg>';
  var ICON_CLOSE = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18"/></svg>';
  var ICON_UP = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M7 10v11H3V10h4zM7 10l4-8c1.7 0 3 1.3 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.3 8A2 2 0 0 1 18.2 21H7"/></svg>';
  var ICON_DOWN = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M17 14V3h4v11h-4zM17 14l-4 8c-1.7 0-3-1.3-3-3v-4H4.5a2 2 0 0 1-2-2.3l1.3-8A2 2 0 0 1 5.8 3H17"/></svg>';
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

  function replyNodes(reply, sources, owner) {
    // Blocks first: a blank line starts a paragraph, "- " lines are a list (an ayat, a huruf), other line
    // breaks stay breaks. Inside a block, inlineNodes; nothing is ever parsed as HTML.
    var blocks = [], list = null;
    String(reply).split(/\n{2,}/).forEach(function (chunk) {
      var paragraph = null;
      list = null;
      chunk.split("\n").forEach(function (line) {
        if (/^- /.test(line)) {
          if (!list) { list = el("ul", { "class": "items" }); blocks.push(list); paragraph = null; }
          var item = el("li");
          inlineNodes(line.slice(2), sources, owner).forEach(function (node) { item.appendChild(node); });
          list.appendChild(item);
          return;
        }
        list = null;
        if (!paragraph) { paragraph = el("p"); blocks.push(paragraph); }
        else paragraph.appendChild(el("br"));
        inlineNodes(line, sources, owner).forEach(function (node) { paragraph.appendChild(node); });
      });
    });
    return blocks;
  }

  function inlineNodes(reply, sources, owner) {
    // "[n]" points at sources[n-1] and "**x**" is bold (as passages quote it); the rest is plain text, never HTML.
    var nodes = [];
    var pattern = /\*\*([^*\n]+)\*\*|\[(\d+)\]/g, last = 0, match;
    while ((match = pattern.exec(reply))) {
      var n = Number(match[2]);
      if (match[2] && !sources[n - 1]) continue;
      nodes.push(document.createTextNode(reply.slice(last, match.index)));
      if (match[1]) {
        nodes.push(el("strong", { text: match[1] }));
      } else {
        nodes.push(el("a", { "class": "cite", href: sourceUrl(sources[n - 1]), text: "[" + n + "]",
          onclick: (function (index) { return function (event) { event.preventDefault(); toggleExcerpt(owner, index); }; })(n - 1) }));
      }
      last = match.index + match[0].length;
    }
    nodes.push(document.createTextNode(reply.slice(last)));
    return nodes;
  }

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
    replyNodes(entry.text, entry.sources || [], bubbleNode).forEach(function (node) { bubbleNode.appendChild(node); });
    var sources = sourcesNode(entry.sources, bubbleNode);
    if (sources) bubbleNode.appendChild(sources);
    if (entry.conversationId && entry.turn != null) bubbleNode.appendChild(feedbackNode(entry));
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

  // -- feedback on an answer: thumbs up/down, an optional comment with thumbs down ---------

  function postFeedback(entry, rating, comment, note) {
    var body = { visitorId: state.visitorId, conversationId: entry.conversationId, turn: entry.turn, rating: rating };
    if (comment) body.comment = comment;
    return fetch(apiBase + SERVER.feedbackPath, {
      method: "POST", mode: "cors", credentials: "omit", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (!response.ok) return Promise.reject(response.status);
      entry.feedback = { rating: rating, comment: comment || "" };
      save();
      note.textContent = t().feedbackThanks;
    }).catch(function () { note.textContent = t().feedbackFailed; });
  }

  function feedbackNode(entry) {
    var chosen = entry.feedback && entry.feedback.rating;
    var note = el("span", { "class": "note", role: "status", text: chosen ? t().feedbackThanks : "" });
    var box = el("div", { "class": "feedback" });
    function rateButton(rating, icon, label) {
      var button = el("button", { type: "button", "class": "rate " + rating, "aria-label": label, title: label,
        "aria-pressed": String(chosen === rating), onclick: function () {
          box.querySelectorAll("button.rate").forEach(function (b) { b.setAttribute("aria-pressed", String(b === this)); }, this);
          var old = box.querySelector(".comment-form");
          if (old) old.remove();
          if (rating === "up") { postFeedback(entry, "up", "", note); return; }
          var comment = el("textarea", { "class": "comment", placeholder: t().feedbackComment, maxlength: "2000" });
          var send = el("button", { type: "button", "class": "send-feedback", text: t().feedbackSend, onclick: function () {
            postFeedback(entry, "down", comment.value.trim(), note).then(function () { form.remove(); });
          } });
          var form = el("div", { "class": "comment-form", style: "display:contents" }, [comment, send]);
          box.insertBefore(form, note);
          comment.focus();
        } });
      button.innerHTML = icon;
      return button;
    }
    box.appendChild(rateButton("up", ICON_UP, t().helpful));
    box.appendChild(rateButton("down", ICON_DOWN, t().notHelpful));
    box.appendChild(note);
    return box;
  }

  function renderAll(showTurn) {
    messages.textContent = "";
    messages.appendChild(el("div", { "class": "msg bot greeting", text: SERVER.greeting || t().greeting }));
    var lastBot = -1;
    state.transcript.forEach(function (entry, index) { if (entry.role === "assistant") lastBot = index; });
    var lastQuestion = null;
    state.transcript.forEach(function (entry, index) {
      var isLast = index === lastBot && index === state.transcript.length - 1;
      entryNode(entry, isLast).forEach(function (node) {
        messages.appendChild(node);
        if (entry.role === "user") lastQuestion = node;
      });
    });
    if (pending) messages.appendChild(pending.node);
    // A finished answer is read from its question down; otherwise follow the newest line.
    messages.scrollTop = showTurn && lastQuestion ? lastQuestion.offsetTop - messages.offsetTop - 8 : messages.scrollHeight;
  }

  // -- the turn in flight ---------------------------------------------------------------

  var pending = null;   // { node, body, status, text, controller }

  function statusNode(label) {
    return el("div", { "class": "status" }, [
      el("span", { "class": "dots", "aria-hidden": "true" }, [el("i"), el("i"), el("i")]),
      el("span", { "class": "label", text: label })
    ]);
  }

  function startPending(controller) {
    var body = el("span", { "class": "body" });
    var status = statusNode(t().phases.start);
    pending = { node: el("div", { "class": "msg bot pending" }, [body, status]), body: body, status: status, text: "", controller: controller };
    renderAll();
  }

  function setPhase(name) {
    var label = t().phases[name];
    if (!pending || !label) return;   // unknown phases: ignored
    pending.status.querySelector(".label").textContent = label;
    // Announce every label, however briefly shown (host pages and tests can follow progress).
    host.dispatchEvent(new CustomEvent("acehrag:phase", { detail: { name: name, label: label } }));
  }

  function finish(entry) {
    pending = null;
    state.transcript.push(entry);
    save();
    setBusy(false);
    renderAll(true);
  }

  function setBusy(busy) {
    sendButton.disabled = busy;
    input.readOnly = busy;
  }

  function handlers() {
    var settled = false;
    return {
      start: function () { setPhase("start"); },
      phase: function (data) { setPhase(data && data.name); },
      delta: function (data) {
        if (!pending) return;
        pending.text += String(data.text || "");
        pending.body.textContent = "";
        replyNodes(pending.text, [], null).forEach(function (node) { pending.body.appendChild(node); });
        messages.scrollTop = messages.scrollHeight;
      },
      done: function (data) {
        settled = true;
        state.visitorId = data.visitorId || state.visitorId;
        state.sessionId = data.sessionId || state.sessionId;
        if (data.conversationId !== state.conversationId) state.turns = 0;
        state.conversationId = data.conversationId || state.conversationId;
        // The answer's exchange in its conversation: the key the feedback route takes.
        var turn = state.turns || 0;
        state.turns = turn + 1;
        finish({ role: "assistant", text: String(data.reply || ""), sources: data.sources || [], suggestions: data.suggestions || [],
                 conversationId: state.conversationId, turn: turn });
      },
      error: function (data) {
        settled = true;
        data = data || {};
        if (data.code === "NOT_FOUND" && state.conversationId) state.conversationId = null;
        finish({ role: "error", code: data.code || "DEFAULT", retryAfter: data.retryAfter });
      },
      cancelled: function () { settled = true; finish({ role: "error", code: "CANCELLED" }); },
      end: function () { if (!settled && pending) { settled = true; finish({ role: "error", code: "NETWORK" }); } }
    };
  }

  function readStream(stream, on) {
    var reader = stream.getReader();
    var decoder = new TextDecoder("utf-8");
    var buffer = "";
    function dispatch(block) {
      var event = "message", data = [];
      block.split("\n").forEach(function (raw) {
        var line = raw.replace(/\r$/, "");
        if (!line || line.charAt(0) === ":") return;
        var colon = line.indexOf(":");
        var field = colon < 0 ? line : line.slice(0, colon);
        var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
      });
      if (!data.length || !Object.prototype.hasOwnProperty.call(on, event) || event === "end") return;
      var payload;
      try { payload = JSON.parse(data.join("\n")); } catch (e) { return; }
      on[event](payload);
    }
    function pump() {
      return reader.read().then(function (chunk) {
        if (chunk.done) {
          buffer += decoder.decode();
          if (buffer.trim()) dispatch(buffer);
          on.end();
          return;
        }
        buffer += decoder.decode(chunk.value, { stream: true });
        var match;
        while ((match = /\r?\n\r?\n/.exec(buffer))) {
          dispatch(buffer.slice(0, match.index));
          buffer = buffer.slice(match.index + match[0].length);
        }
        return pump();
      });
    }
    return pump();
  }

  function send(raw) {
    var text = String(raw || "").trim();
    if (!text || pending) return;
    if (text.length > SERVER.maxQuestionChars) {
      state.transcript.push({ role: "error", code: "TOO_LONG" });
      save();
      renderAll();
      return;
    }
    input.value = "";
    onInput();
    state.transcript.push({ role: "user", text: text });
    save();
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    setBusy(true);
    startPending(controller);
    var on = handlers();
    var body = { message: text, stream: true };
    if (state.conversationId) body.conversationId = state.conversationId;
    if (state.visitorId) body.visitorId = state.visitorId;
    if (state.sessionId) body.sessionId = state.sessionId;
    fetch(apiBase + SERVER.chatPath, {
      method: "POST", mode: "cors", credentials: "omit",
      headers: { "Content-Type": "application/json", "Accept": "text/event-stream, application/json" },
      body: JSON.stringify(body), signal: controller ? controller.signal : undefined
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("text/event-stream") === 0 && response.body && response.body.getReader) {
        return readStream(response.body, on);
      }
      // No stream (an error before it started, or a proxy that buffers): the JSON has the same shape.
      return response.json().then(function (data) {
        if (data && data.ok) on.done(data); else on.error(data);
      });
    }).catch(function (error) {
      if (error && error.name === "AbortError") return;
      on.error({ code: "NETWORK" });
    });
  }

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
    pending = null;
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
