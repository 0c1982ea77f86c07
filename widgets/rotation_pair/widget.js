/* This course's q/k widget (narration/page.py places it in word_order, beside qk_widget): q on seat m,
   k on seat n, each turned by its seat times θ: the arrows, each turn, k's turn relative to q ((n − m)θ,
   signed), the angle between them (folded into [0°, 180°], the arc), the score q·k. Its data: theta_deg,
   seats, q, k (2-D), m, n (the seats it starts on), from narration/figures.py. Plain ES5. */
coursekit.widget("rotation_pair", function (el, data) {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var thetaDeg = Number(data.theta_deg);
  var theta = thetaDeg * Math.PI / 180;
  var q = data.q.map(Number), k = data.k.map(Number);
  var inputs = { m: el.querySelector('input[data-var="m"]'), n: el.querySelector('input[data-var="n"]') };
  var seatsG = el.querySelector(".seats");
  var arc = el.querySelector(".arc");
  var seats = Number(data.seats);

  function each(root, selector, fn) {
    Array.prototype.forEach.call(root.querySelectorAll(selector), fn);
  }
  /* x to `places` decimals, trailing zeros dropped, a minus sign (U+2212) for a negative */
  function number(x, places) {
    var v = Math.round(x * Math.pow(10, places)) / Math.pow(10, places);
    if (v === 0) { v = 0; }
    var s = Math.abs(v).toFixed(places).replace(/\.?0+$/, "");
    return (v < 0 ? "\u2212" : "") + s;
  }

  /* the seats from the data: each slider's range and starting seat, θ in the rule */
  ["m", "n"].forEach(function (name) {
    inputs[name].max = String(seats - 1);
    inputs[name].value = String(data[name]);
  });
  /* a slot of the markup becomes plain text (one run of text with its neighbours, set as one line) */
  function settle(slot, text) {
    var parent = slot.parentNode;
    if (text) { parent.replaceChild(document.createTextNode(text), slot); } else { parent.removeChild(slot); }
    parent.normalize();
  }
  settle(el.querySelector(".widget-rule .theta"), number(thetaDeg, 2));
  /* the score is cos((n − m)θ) only for unit arrows that start aligned: otherwise the label says q·k alone */
  var unitAligned = [q, k].every(function (v) { return Math.abs(Math.sqrt(v[0] * v[0] + v[1] * v[1]) - 1) < 1e-12; }) &&
    Math.abs(Math.atan2(q[1], q[0]) - Math.atan2(k[1], k[0])) < 1e-12;
  var scoreRule = el.querySelector(".score-rule");
  settle(scoreRule, unitAligned ? scoreRule.textContent : "");

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
    drawArc(from, between);                   // the angle between them: from q to k the shorter way
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
});
