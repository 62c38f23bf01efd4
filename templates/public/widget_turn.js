{% verbatim %}
  // A question sent, its answer streamed in and revealed; the controls in widget.js call send().
  // Included into widget.js inside its closure: uses the DOM helpers, rendering, state and save() from there.

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
{% endverbatim %}
