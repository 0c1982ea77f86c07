/* The course page: a lesson's words. The subtitles drawn over the video (on or off and their size are the
   viewer's, page.prefs) and the transcript beside it: the line of the frame shown and in it the current word
   (from the events' character times) highlighted and scrolled to, a click on a line seeks there, the search
   box filters the lines and marks what it found. */
(function (page) {
  "use strict";

  var USER_SCROLL_MS = 4000;    // after the reader scrolls the transcript, leave it alone this long

  page.part(function (L) {
    var prefs = page.prefs;
    var section = L.section;
    var list = section.querySelector(".lines");
    var search = section.querySelector(".search");
    var count = section.querySelector(".count");
    var captions = section.querySelector(".captions");
    var cap = captions.querySelector(".cap");
    var lines = Array.prototype.slice.call(section.querySelectorAll(".lines .line"));
    var texts = lines.map(function (l) { return l.querySelector(".x").textContent; });
    var original = lines.map(function (l) {          // each line's own markup (its words), put back after a search
      return Array.prototype.map.call(l.querySelector(".x").childNodes, function (n) { return n.cloneNode(true); });
    });
    var marked = lines.map(function () { return false; });
    var currentLine = null, currentWords = null, currentWord = null;
    var userScrollAt = -1e9, query = "";

    function scrollToLine(line) {
      if (query || performance.now() - userScrollAt < USER_SCROLL_MS) { return; }
      var top = line.offsetTop, bottom = top + line.offsetHeight;
      if (top < list.scrollTop + 8 || bottom > list.scrollTop + list.clientHeight - 8) {
        list.scrollTo({ top: Math.max(0, top - list.clientHeight / 3), behavior: page.scrollBehavior() });
      }
    }

    function wordsOf(line) {
      return Array.prototype.map.call(line.querySelectorAll(".x .w"), function (w) {
        return { el: w, at: Number(w.dataset.at) };
      });
    }

    function showWord(ms) {
      var found = null;
      if (currentLine) {
        if (!currentWords) { currentWords = wordsOf(currentLine); }
        for (var n = currentWords.length - 1; n >= 0; n--) {
          if (currentWords[n].at <= ms) { found = currentWords[n].el; break; }
        }
      }
      if (found !== currentWord) {
        if (currentWord) { currentWord.classList.remove("now"); }
        if (found) { found.classList.add("now"); }
        currentWord = found;
      }
    }

    function showCaption() {
      var n = currentLine ? lines.indexOf(currentLine) : -1;
      var on = prefs.subs && n >= 0;
      if (on && cap.textContent !== texts[n]) { cap.textContent = texts[n]; }
      captions.hidden = !on;
    }

    L.on("show", function (ms) {
      var found = null;
      for (var n = 0; n < lines.length; n++) {
        var l = lines[n];
        if (Number(l.dataset.start) <= ms && ms < Number(l.dataset.end)) { found = l; break; }
      }
      if (found !== currentLine) {
        if (currentLine) { currentLine.classList.remove("current"); currentLine.removeAttribute("aria-current"); }
        if (found) { found.classList.add("current"); found.setAttribute("aria-current", "true"); scrollToLine(found); }
        currentLine = found;
        currentWords = null;
      }
      showWord(ms);
      showCaption();
    });
    L.on("prefs", function () {
      L.stage.dataset.capSize = prefs.size;
      showCaption();
    });

    /* click a line to seek; the reader's own scrolling is left alone a while */
    lines.forEach(function (line) {
      line.addEventListener("click", function () { L.userSeek(Number(line.dataset.start)); });
    });
    ["wheel", "touchmove"].forEach(function (name) {
      list.addEventListener(name, function () { userScrollAt = performance.now(); }, { passive: true });
    });
    list.addEventListener("keydown", function () { userScrollAt = performance.now(); });

    /* search: the lines that hold the query, what was found marked */
    function highlight(el, text, q) {
      while (el.firstChild) { el.removeChild(el.firstChild); }
      var lower = text.toLowerCase(), from = 0, at;
      while ((at = lower.indexOf(q, from)) >= 0) {
        el.appendChild(document.createTextNode(text.slice(from, at)));
        var m = document.createElement("mark");
        m.textContent = text.slice(at, at + q.length);
        el.appendChild(m);
        from = at + q.length;
      }
      el.appendChild(document.createTextNode(text.slice(from)));
    }
    function filter() {
      query = search.value.trim().toLowerCase();
      var shown = 0;
      lines.forEach(function (line, n) {
        var hit = !query || texts[n].toLowerCase().indexOf(query) >= 0;
        line.parentNode.hidden = !hit;
        if (hit) { shown++; }
        var x = line.querySelector(".x");
        if (hit && query) { highlight(x, texts[n], query); marked[n] = true; }
        else if (marked[n]) {                     // the line's own words back (the word highlight needs them)
          while (x.firstChild) { x.removeChild(x.firstChild); }
          original[n].forEach(function (node) { x.appendChild(node.cloneNode(true)); });
          marked[n] = false;
        }
      });
      currentWords = null;
      currentWord = null;
      showWord(Math.round(L.shownTime * 1000));
      count.textContent = query ? page.t("count", { n: shown }) : "";
      if (!query && currentLine) { scrollToLine(currentLine); }
    }
    search.addEventListener("input", filter);
    search.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && search.value) { search.value = ""; filter(); }
    });
  });
}(window.coursekit.page));
