// grundy's pages: a little script where it helps. Everything works
// without it except the file picker and the live test table.
"use strict";

// Copy buttons on every code block of a statement (the samples).
function addCopyButtons() {
  for (const pre of document.querySelectorAll(".statement pre")) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.addEventListener("click", async () => {
      const text = pre.querySelector("code")?.textContent ?? pre.textContent;
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = "Copied";
      } catch (_) {
        const range = document.createRange();
        range.selectNodeContents(pre.querySelector("code") ?? pre);
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        button.textContent = "Selected";
      }
      setTimeout(() => { button.textContent = "Copy"; }, 1500);
    });
    pre.appendChild(button);
  }
}

// The submit form: a chosen file fills the source box, and its extension
// picks the language (which stays changeable).
function wireSubmitForm() {
  const file = document.getElementById("file");
  const source = document.getElementById("source");
  const language = document.getElementById("language");
  if (!file || !source || !language) return;
  file.addEventListener("change", () => {
    const f = file.files && file.files[0];
    if (!f) return;
    const ext = f.name.includes(".") ? f.name.split(".").pop().toLowerCase() : "";
    for (const option of language.options) {
      if ((option.dataset.ext || "").split(",").includes(ext)) {
        language.value = option.value;
        break;
      }
    }
    const reader = new FileReader();
    reader.onload = () => { source.value = reader.result; };
    reader.readAsText(f);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The results of a submission being judged: long-polls the page's live
// fragment and swaps it in as tests finish, until the verdict is in.
async function followResults() {
  let section = document.getElementById("results");
  if (!section || section.dataset.status === "done") return;
  for (let round = 0; round < 2000 && section.dataset.status !== "done"; round++) {
    const url = section.dataset.live + "?wait=25&status=" + encodeURIComponent(section.dataset.status) +
      "&seen=" + encodeURIComponent(section.dataset.seen);
    try {
      const reply = await fetch(url, { credentials: "same-origin", headers: { "accept": "text/html" } });
      if (!reply.ok) { await sleep(3000); continue; }
      const holder = document.createElement("div");
      holder.innerHTML = await reply.text();
      const fresh = holder.querySelector("#results");
      if (!fresh) { await sleep(3000); continue; }
      section.replaceWith(fresh);
      section = fresh;
    } catch (_) {
      await sleep(3000);
    }
  }
}

document.addEventListener("DOMContentLoaded", () => {
  addCopyButtons();
  wireSubmitForm();
  followResults();
});
