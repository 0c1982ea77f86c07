/* The course page: where each lesson was left, remembered (page.store, at most every SAVE_EVERY_MS while it
   plays, and when it pauses, ends or the page is left), offered again when the page opens ("from 1:05 on"),
   and the restart button that starts over. A lesson watched to its end, or not past its first second,
   is not remembered. */
(function (page) {
  "use strict";

  var SAVE_EVERY_MS = 2000;     // the position is written to localStorage at most this often

  page.part(function (L) {
    var store = page.store;
    var section = L.section, video = L.video;
    var resumeEl = section.querySelector(".resume");
    var posKey = "coursekit:pos:" + location.pathname + "#" + L.id;
    var lastSaveAt = -1e9, saveTimer = null;

    function savePosition() {
      lastSaveAt = performance.now();
      if (saveTimer !== null) { clearTimeout(saveTimer); saveTimer = null; }
      var time = video.currentTime;
      if (!(time >= 1) || video.ended || time > L.duration() - 1) { store.remove(posKey); }
      else { store.set(posKey, Math.round(time * 1000) / 1000); }
    }
    function saveSoon() {                         // throttled: one write per SAVE_EVERY_MS at most
      if (saveTimer !== null) { return; }
      saveTimer = setTimeout(savePosition, Math.max(0, SAVE_EVERY_MS - (performance.now() - lastSaveAt)));
    }
    ["timeupdate", "seeked"].forEach(function (name) { video.addEventListener(name, saveSoon); });
    ["pause", "ended"].forEach(function (name) { video.addEventListener(name, savePosition); });
    window.addEventListener("pagehide", savePosition);
    document.addEventListener("visibilitychange", function () { if (document.hidden) { savePosition(); } });

    function restore() {
      var saved = Number(store.get(posKey, 0));
      if (!(saved >= 1) || saved > L.duration() - 1) { return; }
      video.currentTime = saved;
      resumeEl.querySelector(".resume-text").textContent = page.t("resumed", { t: page.clock(saved) });
      resumeEl.hidden = false;
    }
    if (video.readyState >= 1) { restore(); } else { video.addEventListener("loadedmetadata", restore, { once: true }); }
    resumeEl.querySelector(".restart").addEventListener("click", function () {
      store.remove(posKey);
      resumeEl.hidden = true;
      L.userSeek(0);
      video.play().catch(function () {});
      section.querySelector(".controls .ctl.play").focus({ preventScroll: true });
    });
  });
}(window.coursekit.page));
