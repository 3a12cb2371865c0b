// The contest pages: a countdown to the start or the end, and the live
// part (scoreboard, own submissions, clarifications) long-polled and
// swapped in when it changes.
"use strict";

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function startCountdown() {
  const head = document.getElementById("contest-head");
  const out = document.getElementById("countdown");
  if (!head || !out) return;
  // The server's clock, not the browser's.
  const skew = Number(head.dataset.now) - Date.now();
  const start = Number(head.dataset.start), end = Number(head.dataset.end);
  const phase = document.getElementById("phase");
  const two = (n) => String(n).padStart(2, "0");
  const show = (ms) => {
    const s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
  };
  let waiting = Date.now() + skew < start && document.getElementById("not-started");
  const tick = () => {
    const now = Date.now() + skew;
    if (now < start) out.textContent = "starts in " + show(start - now);
    else if (now < end) out.textContent = show(end - now) + " left";
    else out.textContent = "over";
    if (phase) phase.textContent = now < start ? "upcoming" : now < end ? "running" : "ended";
    if (waiting && now >= start) {
      waiting = false;
      showProblems();
    }
  };
  tick();
  setInterval(tick, 1000);
}

// At the start the problems appear: the page is read again and its
// problems and submit box take the notice's place, without a reload
// (nothing typed elsewhere on the page is lost). The server decides when
// the contest has started, so a clock a little ahead just asks again.
async function showProblems() {
  for (let round = 0; round < 30; round++) {
    try {
      const reply = await fetch(window.location.pathname, { credentials: "same-origin" });
      if (reply.ok) {
        const page = new DOMParser().parseFromString(await reply.text(), "text/html");
        const grid = page.querySelector(".problem-grid");
        const notice = document.getElementById("not-started");
        if (!notice) return;
        if (grid) {
          const labels = page.getElementById("problem-labels");
          if (labels) notice.before(document.importNode(labels, true));
          notice.replaceWith(document.importNode(grid, true));
          if (typeof addCopyButtons === "function") addCopyButtons();
          return;
        }
      }
    } catch (_) {
      // The server is away for a moment: ask again.
    }
    await pause(1000);
  }
}

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
