/* The course page: a lesson's progress bar. It follows the frame shown (the share played, the time, the
   chapter under way, named under the video and marked on the bar); a click or drag seeks; under the pointer
   it shows the time, the chapter and, when the lesson has seek-bar thumbnails (its thumbnails.vtt), the
   frame there; its keys: arrows ±5 s, PageUp / PageDown a chapter, Home / End, Space / Enter play. */
(function (page) {
  "use strict";

  var clock = page.clock;

  /* "00:01:02.500" or "01:02.500" -> seconds */
  function vttSeconds(text) {
    var parts = text.trim().split(":").map(Number);
    var s = 0;
    parts.forEach(function (p) { s = s * 60 + p; });
    return s;
  }

  /* the seek-bar thumbnails' WebVTT: cues whose text is "sprite.jpg#xywh=X,Y,W,H", relative to the file */
  function parseThumbnails(text, base) {
    var out = [];
    text.replace(/\r\n?/g, "\n").split(/\n\s*\n/).forEach(function (block) {
      var rows = block.split("\n").map(function (r) { return r.trim(); }).filter(Boolean);
      for (var n = 0; n < rows.length; n++) {
        var m = rows[n].match(/^([\d:.]+)\s+-->\s+([\d:.]+)/);
        if (!m || !rows[n + 1]) { continue; }
        var ref = rows[n + 1], at = ref.indexOf("#xywh=");
        if (at < 0) { return; }
        var box = ref.slice(at + 6).split(",").map(Number);
        if (box.length !== 4 || box.some(isNaN)) { return; }
        out.push({ start: vttSeconds(m[1]), end: vttSeconds(m[2]), url: new URL(ref.slice(0, at), base).href,
                   x: box[0], y: box[1], w: box[2], h: box[3] });
        return;
      }
    });
    return out;
  }

  page.part(function (L) {
    var section = L.section;
    var bar = section.querySelector(".progress");
    var fill = bar.querySelector(".fill");
    var tip = bar.querySelector(".tip");
    var tipText = tip.querySelector(".tip-text");
    var thumb = tip.querySelector(".thumb");
    var timeEl = section.querySelector(".time");
    var nowChapter = section.querySelector(".now-chapter");
    var currentChapter = null, dragging = false, thumbs = [];

    L.on("show", function (ms, time) {
      var d = L.duration();
      var share = Math.max(0, Math.min(1, time / d));
      fill.style.width = (share * 100).toFixed(3) + "%";
      bar.setAttribute("aria-valuenow", String(Math.floor(time)));
      var ch = L.chapterAt(ms);
      bar.setAttribute("aria-valuetext", clock(time) + (ch ? "，" + ch.title : ""));
      timeEl.textContent = clock(time) + " / " + clock(d);
      if (ch !== currentChapter) {
        if (currentChapter) { currentChapter.mark.classList.remove("current"); }
        if (ch) { ch.mark.classList.add("current"); }
        nowChapter.textContent = ch ? page.t("chapter_n", { n: L.chapters.indexOf(ch) + 1, title: ch.title }) : "";
        currentChapter = ch;
      }
    });

    function msAtX(clientX) {
      var r = bar.getBoundingClientRect();
      return Math.max(0, Math.min(1, (clientX - r.left) / r.width)) * L.duration() * 1000;
    }
    function thumbAt(ms) {
      var s = ms / 1000, found = null;
      for (var n = 0; n < thumbs.length; n++) {
        if (thumbs[n].start <= s + 1e-6) { found = thumbs[n]; }
        if (thumbs[n].start <= s && s < thumbs[n].end) { return thumbs[n]; }
      }
      return found;
    }
    function showTip(ms) {
      var ch = L.chapterAt(ms);
      tipText.textContent = clock(ms / 1000) + (ch ? " · " + ch.title : "");
      var th = thumbAt(ms);
      if (th) {
        var scale = Math.min(1, 176 / th.w), img = th.image;
        thumb.style.width = (th.w * scale) + "px";
        thumb.style.height = (th.h * scale) + "px";
        thumb.style.backgroundImage = 'url("' + th.url.replace(/"/g, "%22") + '")';
        thumb.style.backgroundPosition = (-th.x * scale) + "px " + (-th.y * scale) + "px";
        thumb.style.backgroundSize = img && img.naturalWidth ? (img.naturalWidth * scale) + "px " + (img.naturalHeight * scale) + "px" : "";
        thumb.dataset.xywh = [th.x, th.y, th.w, th.h].join(",");
        thumb.hidden = false;
      } else {
        thumb.hidden = true;
      }
      tip.hidden = false;
      var r = bar.getBoundingClientRect();
      var half = tip.offsetWidth / 2;
      var x = Math.max(half, Math.min(r.width - half, ms / 1000 / L.duration() * r.width));
      tip.style.left = x + "px";
    }
    if (L.data.thumbnails && window.fetch) {
      var base = new URL(L.data.thumbnails, location.href).href;
      fetch(base).then(function (r) { return r.ok ? r.text() : ""; }).then(function (text) {
        thumbs = parseThumbnails(text, base);
        var images = {};
        thumbs.forEach(function (th) {
          if (!images[th.url]) { images[th.url] = new Image(); images[th.url].src = th.url; }
          th.image = images[th.url];
        });
        section.dataset.thumbnails = String(thumbs.length);
      }).catch(function () { section.dataset.thumbnails = "0"; });
    }

    /* click or drag to seek */
    bar.addEventListener("pointerdown", function (e) {
      dragging = true;
      bar.setPointerCapture(e.pointerId);
      var ms = msAtX(e.clientX);
      showTip(ms);
      L.userSeek(ms);
    });
    bar.addEventListener("pointermove", function (e) {
      var ms = msAtX(e.clientX);
      showTip(ms);
      if (dragging) { L.userSeek(ms); }
    });
    function endDrag() { dragging = false; tip.hidden = true; }
    bar.addEventListener("pointerup", endDrag);
    bar.addEventListener("pointercancel", endDrag);
    bar.addEventListener("pointerleave", function () { if (!dragging) { tip.hidden = true; } });
    bar.addEventListener("blur", function () { tip.hidden = true; });
    bar.addEventListener("keydown", function (e) {
      var ms = L.nowMs(), target = null;
      if (e.key === "ArrowRight" || e.key === "ArrowUp") { target = ms + 5000; }
      else if (e.key === "ArrowLeft" || e.key === "ArrowDown") { target = ms - 5000; }
      else if (e.key === "PageDown") { target = L.nextChapterMs(); }
      else if (e.key === "PageUp") { target = L.previousChapterMs(); }
      else if (e.key === "Home") { target = 0; }
      else if (e.key === "End") { target = L.duration() * 1000 - 1; }
      else if (e.key === " " || e.key === "Enter") {
        e.preventDefault();
        L.togglePlay();
        return;
      }
      if (target === null) { return; }
      e.preventDefault();
      target = Math.max(0, Math.min(L.duration() * 1000, target));
      L.userSeek(target);
      showTip(target);
    });
  });
}(window.coursekit.page));
