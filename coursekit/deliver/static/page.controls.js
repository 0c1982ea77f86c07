/* The course page: a lesson's control bar, which takes the place of the browser's own controls (play,
   −10 s / +10 s, mute, subtitles on or off, speed, subtitle size, in-video questions on or off, the list
   of keys, fullscreen), a frame back or on while paused (the keys , and .), and the page's seek buttons
   (chapters, questions, widgets), which also bring the video into view. */
(function (page) {
  "use strict";

  var t = page.t;

  page.part(function (L) {
    var prefs = page.prefs;
    var section = L.section, video = L.video, stage = L.stage, fps = L.fps;
    var controls = section.querySelector(".controls");
    var button = function (cls) { return controls.querySelector(".ctl." + cls); };
    var playBtn = button("play"), muteBtn = button("mute"), ccBtn = button("cc"), fullBtn = button("full");
    var speedSel = controls.querySelector(".speed"), sizeSel = controls.querySelector(".cap-size");
    var quizSwitch = button("quiz-switch");
    var stepFrame = null;                         // the frame a step goes to, while its seek is under way

    L.togglePlay = function () {
      if (L.quizOpen()) { L.closeQuiz(true); return; }
      if (video.paused || video.ended) { video.play().catch(function () {}); } else { video.pause(); }
    };
    function showPlaying() {
      var playing = !video.paused && !video.ended;
      playBtn.classList.toggle("playing", playing);
      playBtn.setAttribute("aria-label", playing ? t("pause") : t("play"));
      playBtn.title = (playing ? t("pause") : t("play")) + "（k）";
    }
    L.toggleFullscreen = function () {
      var d = document;
      if (d.fullscreenElement || d.webkitFullscreenElement) {
        (d.exitFullscreen || d.webkitExitFullscreen).call(d);
      } else if (stage.requestFullscreen) {
        stage.requestFullscreen().catch(function () {});
      } else if (stage.webkitRequestFullscreen) {
        stage.webkitRequestFullscreen();
      } else if (video.webkitEnterFullscreen) {
        video.webkitEnterFullscreen();          // iPhone: the video alone
      }
    };
    L.toggleMute = function () {
      video.muted = !video.muted;
      muteBtn.setAttribute("aria-pressed", String(video.muted));   // now, not only when volumechange comes
    };
    L.stepFrames = function (n) {
      if (!video.paused || !fps) { return; }
      if (L.quizOpen()) { L.closeQuiz(false); }
      var base = video.seeking && stepFrame !== null ? stepFrame : Math.round(L.shownTime * fps);
      var last = Math.max(0, Math.floor(L.duration() * fps - 1e-6) - 1);
      stepFrame = Math.max(0, Math.min(last, base + n));
      video.currentTime = (stepFrame + 0.5) / fps;
    };
    L.on("userseek", function () { stepFrame = null; });
    L.on("prefs", function () {
      ccBtn.setAttribute("aria-pressed", String(prefs.subs));
      quizSwitch.setAttribute("aria-pressed", String(prefs.quiz));
      sizeSel.value = prefs.size;
    });

    playBtn.addEventListener("click", L.togglePlay);
    button("back10").addEventListener("click", function () { L.userSeek(L.nowMs() - 10000); });
    button("forward10").addEventListener("click", function () { L.userSeek(L.nowMs() + 10000); });
    muteBtn.addEventListener("click", L.toggleMute);
    ccBtn.addEventListener("click", function () { page.setPref("subs", !prefs.subs); });
    quizSwitch.addEventListener("click", function () { page.setPref("quiz", !prefs.quiz); });
    fullBtn.addEventListener("click", L.toggleFullscreen);
    button("keys").addEventListener("click", function () { page.openKeys(); });
    sizeSel.addEventListener("change", function () { page.setPref("size", sizeSel.value); });
    speedSel.addEventListener("change", function () { video.playbackRate = Number(speedSel.value); });
    video.addEventListener("ratechange", function () {
      var v = String(video.playbackRate);
      if (speedSel.querySelector('option[value="' + v + '"]')) { speedSel.value = v; }
    });
    video.addEventListener("volumechange", function () { muteBtn.setAttribute("aria-pressed", String(video.muted)); });
    ["play", "pause", "ended", "emptied"].forEach(function (name) { video.addEventListener(name, showPlaying); });
    video.addEventListener("click", L.togglePlay);
    ["fullscreenchange", "webkitfullscreenchange"].forEach(function (name) {
      document.addEventListener(name, function () {
        var on = (document.fullscreenElement || document.webkitFullscreenElement) === stage;
        stage.classList.toggle("full", on);
        fullBtn.setAttribute("aria-pressed", String(on));
      });
    });
    fullBtn.setAttribute("aria-pressed", "false");

    /* the page draws the subtitles (their size is the viewer's); the browser's own stay hidden */
    video.controls = false;
    controls.hidden = false;
    Array.prototype.forEach.call(video.textTracks || [], function (track) {
      if (track.kind === "subtitles" || track.kind === "captions") { track.mode = "hidden"; }
    });

    /* seek buttons (chapters, questions, widgets): seek, and bring the video into view */
    page.each(section, "button.seek", function (b) {
      b.addEventListener("click", function () {
        L.userSeek(Number(b.dataset.start));
        var r = video.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight) { stage.scrollIntoView({ block: "start", behavior: page.scrollBehavior() }); }
      });
    });

    showPlaying();
  });
}(window.coursekit.page));
