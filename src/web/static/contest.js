// The contest pages: a countdown to the start or the end, and the live
// part (scoreboard, own submissions, clarifications) long-polled and
// swapped in when it changes.
"use strict";

function startCountdown() {
  const head = document.getElementById("contest-head");
  const out = document.getElementById("countdown");
  if (!head || !out) return;
  // The server's clock, not the browser's.
  const skew = Number(head.dataset.now) - Date.now();
  const start = Number(head.dataset.start), end = Number(head.dataset.end);
  const two = (n) => String(n).padStart(2, "0");
  const show = (ms) => {
    const s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
  };
  let wasBefore = Date.now() + skew < start;
  const tick = () => {
    const now = Date.now() + skew;
    if (now < start) out.textContent = "starts in " + show(start - now);
    else if (now < end) out.textContent = show(end - now) + " left";
    else out.textContent = "over";
    // The problems appear at the start: load them.
    if (wasBefore && now >= start && document.getElementById("not-started")) {
      wasBefore = false;
      setTimeout(() => window.location.reload(), 1000);
    }
  };
  tick();
  setInterval(tick, 1000);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function followContest() {
  let live = document.getElementById("live");
  if (!live) return;
  for (let round = 0; round < 100000; round++) {
    const url = live.dataset.live + "?page=" + live.dataset.page + "&wait=25&seen=" +
      encodeURIComponent(live.dataset.seen);
    try {
      const reply = await fetch(url, { credentials: "same-origin", headers: { "accept": "text/html" } });
      if (!reply.ok) { await pause(3000); continue; }
      const holder = document.createElement("div");
      holder.innerHTML = await reply.text();
      const fresh = holder.querySelector("#live");
      if (!fresh) { await pause(3000); continue; }
      if (fresh.dataset.seen !== live.dataset.seen) {
        live.replaceWith(fresh);
        live = fresh;
      }
    } catch (_) {
      await pause(3000);
    }
  }
}

document.addEventListener("DOMContentLoaded", () => {
  startCountdown();
  followContest();
});
