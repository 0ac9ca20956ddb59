// The page `GET /` serves: every open session's activity, confidence, counts and a timeline of
// its last minutes, from the server-sent events of `GET /events` (polling `GET /api/devices`
// where EventSource is missing). Everything is in this string: no CDN, no other file. The state
// at the time of the request is drawn as the page loads (`page(snapshot:)`).

import Foundation

enum LivePage {
  /// The page with `snapshot` (JSON) drawn as it loads; `</` is escaped so no text ends the
  /// script early.
  static func page(snapshot json: [UInt8]) -> String {
    let text = String(decoding: json, as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
    return html.replacingOccurrences(of: "/*SNAPSHOT*/null", with: text)
  }

  static let html = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>motus serve</title>
    <style>
    :root{font-family:system-ui,-apple-system,sans-serif;color:#1d2330;background:#f4f5f7}
    body{margin:0;padding:12px;max-width:1100px;margin:auto}
    h1{font-size:1.2rem;margin:4px 0 10px}
    #devices{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:10px}
    .card{background:#fff;border-radius:10px;padding:12px;box-shadow:0 1px 3px #0002}
    .who{font-size:.85rem;color:#586174;word-break:break-all}
    .label{font-size:2rem;font-weight:650;margin:6px 0 2px}
    .meta{font-size:.9rem;color:#3b4456}
    .counts{display:flex;gap:16px;margin:8px 0;font-size:1rem}
    .counts b{font-size:1.4rem;display:block}
    .bar{display:flex;height:22px;border-radius:5px;overflow:hidden;background:#e3e6eb}
    .bar span{display:block;height:100%}
    .legend{font-size:.75rem;color:#586174;margin-top:4px}
    .note{font-size:.8rem;color:#9b2c2c;margin-top:6px;word-break:break-word}
    .setup{background:#fff;border-radius:10px;padding:10px 12px;margin:10px 0;font-size:.9rem}
    code{background:#eef0f3;padding:1px 4px;border-radius:4px;word-break:break-all}
    #status{font-size:.8rem;color:#586174}
    .closed{font-size:.85rem;color:#3b4456;margin-top:10px}
    </style></head><body>
    <h1>motus serve <span id="status">connecting…</span></h1>
    <div id="devices"></div>
    <p id="empty" class="meta">No device is pushing yet.</p>
    <div class="setup">In Sensor Logger: Settings › Data Streaming › HTTP Push, URL
    <code id="url"></code>, then start a recording. Other programs: POST CSV rows (a header
    first) to <code id="csvurl"></code>. <span id="tokennote"></span></div>
    <div id="notes"></div><div id="closed" class="closed"></div>
    <script>
    "use strict";
    const params = new URLSearchParams(location.search);
    const token = params.get("token");
    const q = token ? "?token=" + encodeURIComponent(token) : "";
    const base = location.origin;
    document.getElementById("url").textContent = base + "/push" + (token ? "?token=YOUR_TOKEN" : "");
    document.getElementById("csvurl").textContent = base + "/samples?device=NAME" + (token ? "&token=YOUR_TOKEN" : "");
    document.getElementById("tokennote").textContent = token
      ? "This server needs its token: put it in place of YOUR_TOKEN (the one given to --token)."
      : "";
    const palette = ["#4c78a8","#f58518","#54a24b","#e45756","#72b7b2","#b279a2","#eeca3b","#9d755d","#bab0ac"];
    let classes = [];
    function colour(label) {
      const i = classes.indexOf(label);
      return i < 0 ? "#bab0ac" : palette[i % palette.length];
    }
    function el(tag, cls, text) {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    }
    function card(d) {
      const c = el("div", "card");
      c.dataset.device = d.device;
      c.appendChild(el("div", "who", d.device + " · " + d.session + (d.platform ? " · " + d.platform : "")));
      const label = el("div", "label", d.label || "waiting…");
      label.style.color = d.label ? colour(d.label) : "#8a93a5";
      c.appendChild(label);
      const p = d.probability === undefined || d.probability === null ? "" :
        Math.round(d.probability * 100) + "% · " + d.confidence + " confidence";
      c.appendChild(el("div", "meta", p));
      const counts = el("div", "counts");
      for (const [name, value] of [["steps", d.steps], ["push-ups", d.pushUps], ["predictions", d.predictions]]) {
        const s = el("div", "", name); s.prepend(el("b", "", String(value))); counts.appendChild(s);
      }
      c.appendChild(counts);
      const bar = el("div", "bar");
      const spans = d.timeline || [];
      if (spans.length) {
        const start = spans[0].start, end = spans[spans.length - 1].end, width = Math.max(end - start, 1e-9);
        for (const s of spans) {
          const part = el("span"); part.title = s.label + " " + s.start.toFixed(1) + "–" + s.end.toFixed(1) + " s";
          part.style.width = (100 * (s.end - s.start) / width) + "%"; part.style.background = colour(s.label);
          bar.appendChild(part);
        }
      }
      c.appendChild(bar);
      c.appendChild(el("div", "legend", spans.length ? "last " + Math.round(spans[spans.length-1].end - spans[0].start) +
        " s · " + (d.rateHz ? d.rateHz.toFixed(0) + " Hz · " : "") + d.samples + " samples" : "timeline: after the first window"));
      for (const n of (d.notes || []).slice(-3)) c.appendChild(el("div", "note", n.status + ": " + n.reason));
      return c;
    }
    function render(s) {
      classes = s.classes || [];
      const box = document.getElementById("devices");
      box.replaceChildren(...s.devices.map(card));
      document.getElementById("empty").style.display = s.devices.length ? "none" : "";
      const notes = document.getElementById("notes");
      notes.replaceChildren(...(s.notes || []).slice(-5).map(n => el("div", "note", n.status + ": " + n.reason)));
      const closed = document.getElementById("closed");
      closed.replaceChildren(...(s.closed || []).slice(-5).map(d => el("div", "",
        "closed: " + d.device + " · " + d.session + " — " + d.predictions + " predictions, " + d.steps +
        " steps, " + d.pushUps + " push-ups")));
    }
    function status(text) { document.getElementById("status").textContent = text; }
    function poll() {
      fetch("/api/devices" + q).then(r => r.json()).then(s => { render(s); status("polling"); })
        .catch(() => status("server unreachable")).finally(() => setTimeout(poll, 1000));
    }
    const initial = /*SNAPSHOT*/null;
    if (initial) render(initial);
    if (window.EventSource) {
      const events = new EventSource("/events" + q);
      events.onmessage = m => { render(JSON.parse(m.data)); status("live"); };
      events.onerror = () => status("reconnecting…");
    } else {
      poll();
    }
    </script></body></html>
    """
}
