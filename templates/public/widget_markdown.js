{% verbatim %}
  // -- answer rendering: Markdown (marked) → sanitised DOM (DOMPurify) → headings and citations ----------
  // Included into widget.js inside its closure: uses el(), sourceUrl() and toggleExcerpt() from there.

  var markdown = new vendor.marked.Marked({ gfm: true, breaks: true, async: false });
  var SAFE = {
    ALLOWED_TAGS: ["p", "br", "strong", "b", "em", "i", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6",
                   "blockquote", "code", "pre", "table", "thead", "tbody", "tr", "th", "td", "hr", "del"],
    ALLOWED_ATTR: ["start"], RETURN_DOM_FRAGMENT: true
  };

  // A paragraph that opens with a bold line ("**Peraturan … Pasal 8**" then the ayat) is the answer
  // layout's per-Pasal heading: it becomes a real heading, so it reads (and navigates) as one.
  function promoteBoldHeadings(fragment) {
    Array.prototype.slice.call(fragment.querySelectorAll("p")).forEach(function (paragraph) {
      var first = paragraph.firstChild;
      if (!first || first.nodeName !== "STRONG") return;
      var after = first.nextSibling;
      if (after && after.nodeName !== "BR") return;
      var heading = el("h4", { "class": "heading" });
      while (first.firstChild) heading.appendChild(first.firstChild);
      paragraph.removeChild(first);
      if (after) paragraph.removeChild(after);
      paragraph.parentNode.insertBefore(heading, paragraph);
      if (!paragraph.firstChild) paragraph.parentNode.removeChild(paragraph);
    });
    // Markdown headings of any level sit at one size inside a chat bubble.
    Array.prototype.slice.call(fragment.querySelectorAll("h1,h2,h3,h5,h6")).forEach(function (node) {
      var heading = el("h4", { "class": "heading" });
      while (node.firstChild) heading.appendChild(node.firstChild);
      node.parentNode.replaceChild(heading, node);
    });
  }

  // "[n]" points at sources[n-1]: a chip that opens the cited passage in place.
  function linkCitations(fragment, sources, owner) {
    var walker = document.createTreeWalker(fragment, NodeFilter.SHOW_TEXT);
    var texts = [];
    while (walker.nextNode()) texts.push(walker.currentNode);
    texts.forEach(function (node) {
      var text = node.nodeValue, pattern = /\[(\d+)\]/g, last = 0, match, parts = [];
      while ((match = pattern.exec(text))) {
        var index = Number(match[1]) - 1;
        if (!sources[index]) continue;
        parts.push(document.createTextNode(text.slice(last, match.index)));
        parts.push(el("a", { "class": "cite", href: sourceUrl(sources[index]), text: "[" + (index + 1) + "]",
          onclick: function (event) { event.preventDefault(); toggleExcerpt(owner, index); } }));
        last = match.index + match[0].length;
      }
      if (!parts.length) return;
      parts.push(document.createTextNode(text.slice(last)));
      parts.forEach(function (part) { node.parentNode.insertBefore(part, node); });
      node.parentNode.removeChild(node);
    });
  }

  // The reply as block nodes. Model text is never trusted as HTML: whatever marked produces passes
  // DOMPurify's allow-list (no links, images, attributes or scripts) before it reaches the page.
  function replyNodes(reply, sources, owner) {
    var fragment = vendor.DOMPurify.sanitize(markdown.parse(String(reply || "")), SAFE);
    promoteBoldHeadings(fragment);
    linkCitations(fragment, sources || [], owner);
    return Array.prototype.slice.call(fragment.childNodes);
  }
{% endverbatim %}
