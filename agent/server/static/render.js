// Pure rendering: answer text and citation payloads in, sanitized HTML out.
// Archive text is untrusted: everything is escaped, then passed through DOMPurify with a short
// allow-list before it reaches innerHTML. The live stream and a reopened thread use answerHtml(),
// so both render identically.

const MARKER = /\[\s*C\s*:\s*([0-9a-fA-F]{12})\s*\]/g;
// While streaming, any marker the model writes (not yet validated) shows as pending.
const RAW_MARKER = /\[\s*C\s*:\s*([^[\]\n]{0,64}?)\s*\]/gi;
const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+/;

const ALLOWED = {
  ALLOWED_TAGS: [
    "p",
    "br",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "span",
    "button",
    "mark",
    "div",
    "dl",
    "dt",
    "dd",
    "a",
  ],
  ALLOWED_ATTR: [
    "class",
    "type",
    "data-chunk",
    "data-n",
    "aria-label",
    "id",
    "href",
    "download",
    "title",
  ],
  ALLOW_DATA_ATTR: false,
};

/** DOMPurify over an HTML string built here; the one way HTML reaches the page. */
export function sanitize(html) {
  return window.DOMPurify.sanitize(html, ALLOWED);
}

export function setHtml(element, html) {
  element.innerHTML = sanitize(html);
}

export function escapeHtml(text) {
  return String(text ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Escaped text as paragraphs, simple bullet lists and **bold**. */
function blocks(escaped) {
  return escaped
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      const lines = block.split("\n");
      if (lines.length > 1 && lines.every((line) => LIST_ITEM.test(line))) {
        const items = lines.map((line) => `<li>${inline(line.replace(LIST_ITEM, ""))}</li>`);
        return `<ul>${items.join("")}</ul>`;
      }
      return `<p>${lines.map(inline).join("<br>")}</p>`;
    })
    .join("");
}

function inline(line) {
  return line.trim().replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
}

function badge(citation) {
  const label = `Source ${citation.n}: ${citation.title || citation.source_id || "document"}`;
  return (
    `<button type="button" class="badge" data-chunk="${escapeHtml(citation.chunk_id)}" ` +
    `data-n="${Number(citation.n)}" aria-label="${escapeHtml(label)}">${Number(citation.n)}</button>`
  );
}

/** A finished answer: each valid [C:id] marker becomes its numbered badge, unknown ones vanish. */
export function answerHtml(text, citations) {
  const byId = new Map((citations || []).map((c) => [String(c.chunk_id).toLowerCase(), c]));
  const body = escapeHtml(text).replace(MARKER, (_, id) => {
    const citation = byId.get(id.toLowerCase());
    return citation ? badge(citation) : "";
  });
  return blocks(body.replace(/[ \t]+(<button)/g, "&nbsp;$1"));
}

/** Text still streaming: markers show as pending placeholders until the payload arrives. */
export function streamingHtml(text) {
  const body = escapeHtml(text).replace(
    RAW_MARKER,
    (_, id) => `<span class="marker" aria-label="citation pending">C:${id.slice(0, 4)}…</span>`,
  );
  return blocks(body);
}

/** Hover preview of one citation: title, date, sender or page (or where an attachment or an
 * OCR'd page came from), snippet. */
export function previewHtml(c) {
  const where = c.sender ? `From ${escapeHtml(c.sender)}` : c.page ? `Page ${Number(c.page)}` : "";
  const facts = c.lineage
    ? escapeHtml(c.lineage)
    : [c.date ? escapeHtml(c.date) : "", where, c.section ? escapeHtml(c.section) : ""]
        .filter(Boolean)
        .join(" · ");
  return (
    `<div class="preview-title">[${Number(c.n)}] ${escapeHtml(c.title || c.subject || c.source_id)}</div>` +
    (facts ? `<div class="preview-facts">${facts}</div>` : "") +
    `<div class="preview-snippet">${escapeHtml(c.snippet || "")}</div>`
  );
}

/** Side panel metadata of one citation detail. */
export function documentMetaHtml(detail, citation) {
  const doc = detail.document || {};
  const rows = [
    ["Source", doc.source_id || citation?.source_id],
    ["Subject", doc.subject || citation?.subject],
    ["From", doc.sender || citation?.sender],
    ["Date", doc.date || citation?.date],
    ["Page", citation?.page],
    ["Section", citation?.section],
    ["Kind", doc.kind || citation?.kind],
    ["Found in", citation?.lineage],
    ["Attached to", detail.parent ? messageLine(detail.parent) : null],
  ].filter(([, value]) => value !== null && value !== undefined && value !== "");
  const items = rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`);
  return `<dl>${items.join("")}</dl>`;
}

/** "'RE: Hatch inspection' from captain@…, 2024-01-15" */
function messageLine(parent) {
  const origin = [parent.sender, parent.date].filter(Boolean).join(", ");
  return `“${parent.subject || parent.source_id}”${origin ? ` from ${origin}` : ""}`;
}

/** The original text with the cited passage marked (offsets are into original_text). */
export function originalHtml(detail) {
  const text = String(detail.original_text ?? detail.passage ?? "");
  const range = detail.highlight || {};
  const start = Math.max(0, Math.min(text.length, Number(range.start ?? -1)));
  const end = Math.max(start, Math.min(text.length, Number(range.end ?? -1)));
  if (!(end > start)) {
    return `<div class="original">${escapeHtml(text)}</div>`;
  }
  return (
    `<div class="original">${escapeHtml(text.slice(0, start))}` +
    `<mark id="cited" class="cited">${escapeHtml(text.slice(start, end))}</mark>` +
    `${escapeHtml(text.slice(end))}</div>`
  );
}

const FILTER_LABELS = {
  vessels: "Vessel",
  vessel: "Vessel",
  vessel_type: "Type",
  vessel_class: "Class",
  report_no: "Report",
  report: "Report",
  date_from: "From",
  date_to: "To",
};

function filterValue(value) {
  if (Array.isArray(value)) return value.map(filterValue).join(", ");
  if (value && typeof value === "object") return value.name || value.imo || value.key || "";
  return String(value);
}

/** Active filters as [{name, label}] (one chip per filter key, empty ones left out). */
export function filterChips(filters) {
  return Object.entries(filters || {})
    .filter(
      ([, value]) =>
        value !== null &&
        value !== undefined &&
        value !== "" &&
        !(Array.isArray(value) && !value.length),
    )
    .map(([name, value]) => ({
      name,
      label: `${FILTER_LABELS[name] || name}: ${filterValue(value)}`,
    }));
}
