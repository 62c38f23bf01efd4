{% verbatim %}
  // The tools under each answer (feedback, copy) and the transcript redrawn with them.
  // Included into widget.js inside its closure: uses el(), state, t(), save() and the SERVER settings from there.

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

  // -- the transcript, redrawn ------------------------------------------------------------

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
{% endverbatim %}
