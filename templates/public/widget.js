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
      copy: "Salin", copyLabel: "Salin jawaban beserta sumbernya", copied: "Disalin", copiedNote: "Jawaban disalin.", copyFailed: "Gagal menyalin",
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
      copy: "Copy", copyLabel: "Copy the answer with its sources", copied: "Copied", copiedNote: "Answer copied.", copyFailed: "Copy failed",
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

  // -- copy an answer: its text as shown, then its numbered sources ------------------------

  function answerText(entry, body) {
    var lines = [body.innerText.trim()];
    if (entry.sources && entry.sources.length) {
      lines.push("", t().sources + ":");
      entry.sources.forEach(function (source, index) {
        var meta = [source.legal_reference, source.page_number != null ? t().page + " " + source.page_number : null]
          .filter(Boolean).join(", ");
        lines.push("[" + (index + 1) + "] " + source.document_title + (meta ? " — " + meta : ""));
      });
    }
    return lines.join("\n");
  }

  function clipboardWrite(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // Plain-http partner pages have no Clipboard API: the selection-and-copy command still works there.
    var area = el("textarea", { readonly: "readonly", style: "position:fixed;opacity:0" });
    area.value = text;
    shadow.appendChild(area);
    area.select();
    var copied = document.execCommand("copy");
    area.remove();
    return copied ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function copyButton(entry, body, actions) {
    var label = el("span", { text: t().copy });
    var button = el("button", { type: "button", "class": "copy", "aria-label": t().copyLabel, title: t().copyLabel,
      onclick: function () {
        clipboardWrite(answerText(entry, body)).then(function () {
          label.textContent = t().copied;
          var note = actions.querySelector(".note");
          if (note) note.textContent = t().copiedNote;
          setTimeout(function () { label.textContent = t().copy; }, 2000);
        }, function () { label.textContent = t().copyFailed; });
      } });
    button.innerHTML = ICON_COPY;
    button.appendChild(label);
    return button;
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

  // { node, body, status, text (received), shown (characters revealed), answer (the done entry), controller }
  var pending = null;
  var reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function statusNode(label) {
    return el("div", { "class": "status" }, [
      el("span", { "class": "dots", "aria-hidden": "true" }, [el("i"), el("i"), el("i")]),
      el("span", { "class": "label", text: label })
    ]);
  }

  function startPending(controller) {
    var body = el("div", { "class": "body" });
    var status = statusNode(t().phases.start);
    pending = { node: el("div", { "class": "msg bot pending" }, [body, status]), body: body, status: status, text: "",
                shown: 0, answer: null, frame: null, controller: controller };
    // Screen readers hear the finished answer once, not every revealed word.
    messages.setAttribute("aria-busy", "true");
    renderAll();
  }

  function setPhase(name) {
    var label = t().phases[name];
    if (!pending || !label) return;   // unknown phases: ignored
    pending.status.querySelector(".label").textContent = label;
    // Announce every label, however briefly shown (host pages and tests can follow progress).
    host.dispatchEvent(new CustomEvent("acehrag:phase", { detail: { name: name, label: label } }));
  }

  // The text is revealed as it arrives, a few words per frame, so the reader sees it grow even when
  // the frames come in one network read; the backlog is always caught up within about 20 frames.
  function reveal() {
    if (!pending) return;
    pending.frame = null;
    var total = pending.text.length;
    if (pending.shown < total) {
      var step = reducedMotion || document.hidden ? total : Math.max(4, Math.ceil((total - pending.shown) / 20));
      var cut = pending.text.indexOf(" ", pending.shown + step);
      pending.shown = cut < 0 ? total : cut;
      pending.body.textContent = "";
      replyNodes(pending.text.slice(0, pending.shown), [], null).forEach(function (node) { pending.body.appendChild(node); });
      messages.scrollTop = messages.scrollHeight;
    }
    if (pending.shown < total) pending.frame = requestAnimationFrame(reveal);
    else if (pending.answer) finish(pending.answer);
  }

  function revealSoon() {
    if (pending && pending.frame == null) pending.frame = requestAnimationFrame(reveal);
  }

  function finish(entry) {
    if (pending && pending.frame != null) cancelAnimationFrame(pending.frame);
    messages.removeAttribute("aria-busy");
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
        revealSoon();
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
        var entry = { role: "assistant", text: String(data.reply || ""), sources: data.sources || [],
                      suggestions: data.suggestions || [], conversationId: state.conversationId, turn: turn };
        // The final bubble (sources, feedback) replaces the streamed text once all of it was shown.
        if (pending && pending.shown < pending.text.length) { pending.answer = entry; revealSoon(); } else finish(entry);
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
