/* The course page (coursekit/deliver/page.py). Per lesson: the page's own progress bar with chapter
   marks, the transcript (current line highlighted, click to seek, search), seek buttons, questions
   whose answers open on request, and live widgets. Plain ES5, no network, no libraries.

   Times on the page are whole milliseconds of the lesson, as in the subtitle files: a frame shown at
   media time t belongs to an item [start, end) when start <= round(t * 1000) < end. The shown frame's
   time comes from requestVideoFrameCallback (its mediaTime), not from currentTime, which only echoes
   what was set; timeupdate stands in while no frame is being presented (a video scrolled off screen). */
(function () {
  "use strict";

  var FRAME_FRESH_MS = 600;     // a presented frame newer than this wins over timeupdate
  var USER_SCROLL_MS = 4000;    // after the reader scrolls the transcript, leave it alone this long

  function clock(seconds) {
    var s = Math.max(0, Math.floor(seconds));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    var mm = h ? (m < 10 ? "0" : "") + m : String(m);
    return (h ? h + ":" : "") + mm + ":" + (r < 10 ? "0" : "") + r;
  }

  function number(x, places) {
    var v = Math.round(x * Math.pow(10, places)) / Math.pow(10, places);
    if (v === 0) { v = 0; }
    var s = Math.abs(v).toFixed(places).replace(/\.?0+$/, "");
    return (v < 0 ? "\u2212" : "") + s;
  }

  function each(root, selector, fn) {
    Array.prototype.forEach.call(root.querySelectorAll(selector), fn);
  }

  /* The time to set so that the first frame at or after `ms` is presented (half a frame in, so the
     frame shown is that one whatever the container's rounding). */
  function seekTime(ms, fps) {
    if (!fps) { return ms / 1000 + 0.0005; }
    var k = Math.max(0, Math.ceil((ms - 0.5) * fps / 1000));
    return (k + 0.5) / fps;
  }

  function Lesson(section) {
    var video = section.querySelector("video");
    var fps = Number(section.dataset.fps) || 0;
    var plannedDuration = Number(section.dataset.durationMs) / 1000;
    var bar = section.querySelector(".progress");
    var fill = bar.querySelector(".fill");
    var tip = bar.querySelector(".tip");
    var timeEl = section.querySelector(".time");
    var nowChapter = section.querySelector(".now-chapter");
    var list = section.querySelector(".lines");
    var search = section.querySelector(".search");
    var count = section.querySelector(".count");
    var lines = Array.prototype.slice.call(section.querySelectorAll(".lines .line"));
    var texts = lines.map(function (l) { return l.querySelector(".x").textContent; });
    var marks = Array.prototype.slice.call(bar.querySelectorAll(".mark"));
    var chapters = marks.map(function (m) {
      return { start: Number(m.dataset.start), end: Number(m.dataset.end), title: m.dataset.title, mark: m };
    });
    var currentLine = null, currentChapter = null, lastFrameAt = -1e9, userScrollAt = -1e9;
    var query = "", dragging = false;

    function duration() {
      return isFinite(video.duration) && video.duration > 0 ? video.duration : plannedDuration;
    }

    function seekMs(ms) {
      video.currentTime = Math.min(seekTime(ms, fps), Math.max(0, duration() - 0.001));
    }

    function chapterAt(ms) {
      for (var n = chapters.length - 1; n >= 0; n--) {
        if (chapters[n].start <= ms) { return chapters[n]; }
      }
      return chapters[0] || null;
    }

    function scrollToLine(line) {
      if (query || performance.now() - userScrollAt < USER_SCROLL_MS) { return; }
      var top = line.offsetTop, bottom = top + line.offsetHeight;
      if (top < list.scrollTop + 8 || bottom > list.scrollTop + list.clientHeight - 8) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 3);
      }
    }

    function show(t, source) {
      var ms = Math.round(t * 1000);
      section.dataset.shownTime = String(t);
      section.dataset.shownBy = source;
      var found = null;
      for (var n = 0; n < lines.length; n++) {
        var l = lines[n];
        if (Number(l.dataset.start) <= ms && ms < Number(l.dataset.end)) { found = l; break; }
      }
      if (found !== currentLine) {
        if (currentLine) { currentLine.classList.remove("current"); currentLine.removeAttribute("aria-current"); }
        if (found) { found.classList.add("current"); found.setAttribute("aria-current", "true"); scrollToLine(found); }
        currentLine = found;
      }
      var d = duration();
      var share = Math.max(0, Math.min(1, t / d));
      fill.style.width = (share * 100).toFixed(3) + "%";
      bar.setAttribute("aria-valuenow", String(Math.floor(t)));
      var ch = chapterAt(ms);
      bar.setAttribute("aria-valuetext", clock(t) + (ch ? "，" + ch.title : ""));
      timeEl.textContent = clock(t) + " / " + clock(d);
      if (ch !== currentChapter) {
        if (currentChapter) { currentChapter.mark.classList.remove("current"); }
        if (ch) { ch.mark.classList.add("current"); }
        nowChapter.textContent = ch ? "第 " + (chapters.indexOf(ch) + 1) + " 章：" + ch.title : "";
        currentChapter = ch;
      }
    }

    if ("requestVideoFrameCallback" in video) {
      var onFrame = function (now, meta) {
        lastFrameAt = performance.now();
        show(meta.mediaTime, "frame");
        video.requestVideoFrameCallback(onFrame);
      };
      video.requestVideoFrameCallback(onFrame);
    }
    ["timeupdate", "seeked", "loadedmetadata"].forEach(function (name) {
      video.addEventListener(name, function () {
        if (performance.now() - lastFrameAt > FRAME_FRESH_MS) { show(video.currentTime, "time"); }
      });
    });

    /* the progress bar: click or drag to seek, chapter title under the pointer, keys */
    function msAtX(clientX) {
      var r = bar.getBoundingClientRect();
      return Math.max(0, Math.min(1, (clientX - r.left) / r.width)) * duration() * 1000;
    }
    function showTip(ms) {
      var ch = chapterAt(ms);
      tip.textContent = clock(ms / 1000) + (ch ? " · " + ch.title : "");
      tip.hidden = false;
      var r = bar.getBoundingClientRect();
      var half = tip.offsetWidth / 2;
      var x = Math.max(half, Math.min(r.width - half, ms / 1000 / duration() * r.width));
      tip.style.left = x + "px";
    }
    bar.addEventListener("pointerdown", function (e) {
      dragging = true;
      bar.setPointerCapture(e.pointerId);
      var ms = msAtX(e.clientX);
      showTip(ms);
      seekMs(ms);
    });
    bar.addEventListener("pointermove", function (e) {
      var ms = msAtX(e.clientX);
      showTip(ms);
      if (dragging) { seekMs(ms); }
    });
    function endDrag() { dragging = false; tip.hidden = true; }
    bar.addEventListener("pointerup", endDrag);
    bar.addEventListener("pointercancel", endDrag);
    bar.addEventListener("pointerleave", function () { if (!dragging) { tip.hidden = true; } });
    bar.addEventListener("blur", function () { tip.hidden = true; });
    bar.addEventListener("keydown", function (e) {
      var ms = Math.round(video.currentTime * 1000), target = null;
      var ch = chapterAt(ms), at = chapters.indexOf(ch);
      if (e.key === "ArrowRight" || e.key === "ArrowUp") { target = ms + 5000; }
      else if (e.key === "ArrowLeft" || e.key === "ArrowDown") { target = ms - 5000; }
      else if (e.key === "PageDown") { target = at + 1 < chapters.length ? chapters[at + 1].start : duration() * 1000; }
      else if (e.key === "PageUp") {
        target = ch && ms - ch.start > 2000 ? ch.start : (at > 0 ? chapters[at - 1].start : 0);
      }
      else if (e.key === "Home") { target = 0; }
      else if (e.key === "End") { target = duration() * 1000 - 1; }
      else if (e.key === " " || e.key === "Enter") {
        e.preventDefault();
        if (video.paused) { video.play().catch(function () {}); } else { video.pause(); }
        return;
      }
      if (target === null) { return; }
      e.preventDefault();
      target = Math.max(0, Math.min(duration() * 1000, target));
      seekMs(target);
      showTip(target);
    });

    /* transcript: click a line to seek; search filters */
    lines.forEach(function (line) {
      line.addEventListener("click", function () { seekMs(Number(line.dataset.start)); });
    });
    ["wheel", "touchmove"].forEach(function (name) {
      list.addEventListener(name, function () { userScrollAt = performance.now(); }, { passive: true });
    });
    list.addEventListener("keydown", function () { userScrollAt = performance.now(); });

    function highlight(el, text, q) {
      while (el.firstChild) { el.removeChild(el.firstChild); }
      if (!q) { el.appendChild(document.createTextNode(text)); return; }
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
        highlight(line.querySelector(".x"), texts[n], hit ? query : "");
      });
      count.textContent = query ? shown + " 条" : "";
      if (!query && currentLine) { scrollToLine(currentLine); }
    }
    search.addEventListener("input", filter);
    search.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && search.value) { search.value = ""; filter(); }
    });

    /* seek buttons (chapters, questions, widgets): seek, and bring the video into view */
    each(section, "button.seek", function (b) {
      b.addEventListener("click", function () {
        seekMs(Number(b.dataset.start));
        var r = video.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight) { video.scrollIntoView({ block: "start" }); }
      });
    });

    /* questions: the answer opens (and closes) on request */
    each(section, ".qa .reveal", function (b) {
      var answer = document.getElementById(b.getAttribute("aria-controls"));
      b.addEventListener("click", function () {
        var open = answer.hidden;
        answer.hidden = !open;
        b.setAttribute("aria-expanded", String(open));
        b.textContent = open ? "收起答案" : "显示答案";
      });
    });

    show(0, "start");
  }

  /* q on seat m, k on seat n, each turned by its seat times θ: the arrows, each turn, k's turn relative to q
     ((n − m)θ, signed), the angle between them (folded into [0°, 180°], the arc), the score */
  function RotationPair(el) {
    var SVG = "http://www.w3.org/2000/svg";
    var thetaDeg = Number(el.dataset.thetaDeg);
    var theta = thetaDeg * Math.PI / 180;
    var q = el.dataset.q.split(",").map(Number), k = el.dataset.k.split(",").map(Number);
    var inputs = { m: el.querySelector('input[data-var="m"]'), n: el.querySelector('input[data-var="n"]') };
    var seatsG = el.querySelector(".seats");
    var arc = el.querySelector(".arc");
    var seats = Number(inputs.m.max) + 1;

    for (var s = 0; s < seats; s++) {
      var dot = document.createElementNS(SVG, "circle");
      dot.setAttribute("cx", Math.cos(s * theta).toFixed(4));
      dot.setAttribute("cy", (-Math.sin(s * theta)).toFixed(4));
      dot.setAttribute("r", "0.03");
      seatsG.appendChild(dot);
    }

    function turn(v, a) {
      return [v[0] * Math.cos(a) - v[1] * Math.sin(a), v[0] * Math.sin(a) + v[1] * Math.cos(a)];
    }
    function drawArrow(g, v) {
      var x = v[0], y = -v[1], len = Math.sqrt(x * x + y * y);
      var line = g.querySelector("line"), head = g.querySelector("polygon");
      if (len < 1e-9) { line.setAttribute("x2", "0"); line.setAttribute("y2", "0"); head.setAttribute("points", ""); return; }
      var ux = x / len, uy = y / len, h = Math.min(0.16, len / 2), w = 0.075;
      var bx = x - ux * h, by = y - uy * h;
      line.setAttribute("x2", bx.toFixed(4));
      line.setAttribute("y2", by.toFixed(4));
      head.setAttribute("points", [x, y, bx - uy * w, by + ux * w, bx + uy * w, by - ux * w]
        .map(function (c) { return c.toFixed(4); }).join(" "));
    }
    function drawArc(from, sweep) {
      var r = 0.3;
      sweep = sweep % (2 * Math.PI);
      if (Math.abs(sweep) < 1e-9) { arc.setAttribute("d", ""); return; }
      var to = from + sweep;
      var x0 = r * Math.cos(from), y0 = -r * Math.sin(from), x1 = r * Math.cos(to), y1 = -r * Math.sin(to);
      var large = Math.abs(sweep) > Math.PI ? 1 : 0, dir = sweep > 0 ? 0 : 1;   // y is flipped on screen
      arc.setAttribute("d", "M " + x0.toFixed(4) + " " + y0.toFixed(4) + " A " + r + " " + r + " 0 " + large + " " +
        dir + " " + x1.toFixed(4) + " " + y1.toFixed(4));
    }

    /* the turn from direction a to direction b (radians), wrapped into (−π, π]: the shorter way round */
    function shortest(a, b) {
      var d = (b - a) % (2 * Math.PI);
      if (d > Math.PI) { d -= 2 * Math.PI; }
      if (d <= -Math.PI) { d += 2 * Math.PI; }
      return d;
    }

    function update() {
      var m = Number(inputs.m.value), n = Number(inputs.n.value);
      var qt = turn(q, m * theta), kt = turn(k, n * theta);
      var score = qt[0] * kt[0] + qt[1] * kt[1];
      var from = Math.atan2(qt[1], qt[0]), between = shortest(from, Math.atan2(kt[1], kt[0]));
      Array.prototype.forEach.call(seatsG.childNodes, function (dot, s) {
        dot.setAttribute("class", (s === m ? "at-m" : "") + (s === n ? " at-n" : ""));
        dot.setAttribute("r", s === m || s === n ? "0.05" : "0.03");
      });
      drawArrow(el.querySelector(".arrow-q"), qt);
      drawArrow(el.querySelector(".arrow-k"), kt);
      drawArc(from, between);                   // the 夹角: from q to k the shorter way
      el.querySelector(".seat-m output").textContent = String(m);
      el.querySelector(".seat-n output").textContent = String(n);
      el.querySelector(".q-turn").textContent = number(m * thetaDeg, 2) + "°";
      el.querySelector(".k-turn").textContent = number(n * thetaDeg, 2) + "°";
      el.querySelector(".turn").textContent = number((n - m) * thetaDeg, 2) + "°";
      var angleEl = el.querySelector(".angle");
      angleEl.textContent = number(Math.abs(between) * 180 / Math.PI, 2) + "°";
      angleEl.dataset.value = String(Math.abs(between) * 180 / Math.PI);
      var scoreEl = el.querySelector(".score");
      scoreEl.textContent = number(score, 3);
      scoreEl.dataset.value = String(score);
    }

    each(el, "input.seat-input", function (input) { input.addEventListener("input", update); });
    each(el, "button.step", function (b) {
      b.addEventListener("click", function () {
        var input = document.getElementById(b.dataset.for);
        var v = Math.max(Number(input.min), Math.min(Number(input.max), Number(input.value) + Number(b.dataset.step)));
        input.value = String(v);
        update();
      });
    });
    update();
  }

  each(document, ".lesson", Lesson);
  each(document, ".widget.rotation-pair", RotationPair);
}());
