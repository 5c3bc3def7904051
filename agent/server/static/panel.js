// Citation badges and source list entries: the hover/focus preview and the side panel with the
// original text.

import { api } from "./api.js";
import { citationsOf } from "./messages.js";
import { documentMetaHtml, escapeHtml, originalHtml, previewHtml, setHtml } from "./render.js";

const $ = (id) => document.getElementById(id);
let opener = null; // the badge that opened the panel, focused again when it closes
let opening = 0; // the latest panel request; older answers are dropped

/** A badge's or a source entry's citation payload (kept per answer's message element). */
function citationOf(badge) {
  const message = badge.closest(".message");
  return citationsOf.get(message)?.get(badge.dataset.chunk) || null;
}

function showPreview(badge) {
  const citation = citationOf(badge);
  const preview = $("preview");
  if (!citation) return;
  setHtml(preview, previewHtml(citation));
  preview.hidden = false;
  const box = badge.getBoundingClientRect();
  const width = Math.min(360, window.innerWidth - 16);
  const left = Math.max(8, Math.min(box.left, window.innerWidth - width - 8));
  preview.style.width = `${width}px`;
  preview.style.left = `${left + window.scrollX}px`;
  const below = box.bottom + 8;
  const height = preview.offsetHeight;
  const top = below + height > window.innerHeight ? box.top - height - 8 : below;
  preview.style.top = `${Math.max(8, top) + window.scrollY}px`;
  badge.setAttribute("aria-describedby", "preview");
}

function hidePreview() {
  $("preview").hidden = true;
  for (const badge of document.querySelectorAll('[aria-describedby="preview"]')) {
    badge.removeAttribute("aria-describedby");
  }
}

export function closePanel() {
  const panel = $("panel");
  if (panel.hidden) return;
  panel.hidden = true;
  document.body.classList.remove("panel-open");
  if (opener?.isConnected) opener.focus();
  opener = null;
}

async function openPanel(badge) {
  const citation = citationOf(badge);
  if (!citation) return;
  const request = ++opening;
  opener = badge;
  hidePreview();
  const panel = $("panel");
  panel.hidden = false;
  document.body.classList.add("panel-open");
  $("panel-title").textContent =
    `[${citation.n}] ${citation.title || citation.subject || citation.source_id}`;
  setHtml($("panel-meta"), documentMetaHtml({}, citation));
  setHtml($("panel-body"), '<p class="loading">Loading the original…</p>');
  const download = $("panel-download");
  download.hidden = !citation.download_url;
  if (citation.download_url) download.href = citation.download_url;
  const message = $("panel-download-message");
  message.hidden = true;
  $("panel-close").focus();
  let detail;
  try {
    detail = await api("GET", `/api/citations/${encodeURIComponent(citation.chunk_id)}`);
  } catch (err) {
    if (request === opening)
      setHtml($("panel-body"), `<p class="error">${escapeHtml(err.message)}</p>`);
    return;
  }
  if (request !== opening || panel.hidden) return;
  setHtml($("panel-meta"), documentMetaHtml(detail, citation));
  setHtml($("panel-body"), originalHtml(detail));
  if (detail.download_url) {
    download.href = detail.download_url;
    download.hidden = false;
  }
  if (detail.parent?.download_url) {
    message.href = detail.parent.download_url;
    message.hidden = false;
  }
  $("cited")?.scrollIntoView({ block: "center" });
}

/** Delegated listeners: badges and source entries anywhere in the message list. */
export function bindBadges(messages) {
  const badgeOf = (event) => event.target.closest?.(".badge, .source-open");
  messages.addEventListener("mouseover", (event) => {
    const badge = badgeOf(event);
    if (badge) showPreview(badge);
  });
  messages.addEventListener("mouseout", (event) => {
    if (badgeOf(event)) hidePreview();
  });
  messages.addEventListener("focusin", (event) => {
    const badge = badgeOf(event);
    if (badge) showPreview(badge);
  });
  messages.addEventListener("focusout", (event) => {
    if (badgeOf(event)) hidePreview();
  });
  messages.addEventListener("click", (event) => {
    const badge = badgeOf(event);
    if (badge) openPanel(badge);
  });
  $("panel-close").addEventListener("click", closePanel);
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    hidePreview();
    closePanel();
  });
}
