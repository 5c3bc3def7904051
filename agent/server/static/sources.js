// The numbered source list under an answer: what `bosun ask` prints below its text
// (answers/citations.py render_answer), built from the same citation payload as the badges.
// Archive text is untrusted: every string goes in as textContent, never as HTML.

/** "date · sender · section · p. N" as the CLI writes it; a lineage (an attachment, an OCR'd
 * page) says where the passage came from instead. */
export function sourceFacts(c) {
  if (c.lineage) return String(c.lineage);
  const section = c.section && c.section !== "body" ? c.section : null;
  const page = c.page ? `p. ${Number(c.page)}` : null;
  return [c.date, c.sender, section, page].filter(Boolean).map(String).join(" · ");
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

/** The list (null for an answer without citations): one button per citation, in number order,
 * that previews on hover or focus and opens the original like the badge with the same number. */
export function sourceList(citations) {
  const ordered = [...(citations || [])].sort((a, b) => Number(a.n) - Number(b.n));
  if (!ordered.length) return null;
  const section = document.createElement("section");
  section.className = "sources";
  section.setAttribute("aria-label", "Sources");
  const heading = document.createElement("h3");
  heading.className = "sources-title";
  heading.textContent = "Sources";
  const list = document.createElement("ol");
  list.className = "source-list";
  for (const c of ordered) {
    const open = document.createElement("button");
    open.type = "button";
    open.className = "source-open";
    open.dataset.chunk = String(c.chunk_id).toLowerCase();
    open.dataset.n = String(Number(c.n));
    open.append(
      span("source-n", `[${Number(c.n)}]`),
      span("source-title", String(c.title || c.subject || c.source_id || "document")),
    );
    const facts = sourceFacts(c);
    if (facts) open.append(span("source-facts", facts));
    const item = document.createElement("li");
    item.className = "source";
    item.append(open);
    list.append(item);
  }
  section.append(heading, list);
  return section;
}
