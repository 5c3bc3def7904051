// Message views: a user bubble, an assistant answer (streaming, then badges), its notices and thumbs.

import { api } from "./api.js";
import { icon } from "./icons.js";
import { answerHtml, escapeHtml, setHtml, streamingHtml } from "./render.js";
import { sourceList } from "./sources.js";

const container = () => document.getElementById("messages");

/** chunk id -> citation payload, per answer's message element (its badges and its source list
 * look their preview up here). */
export const citationsOf = new WeakMap();

function append(element) {
  document.getElementById("empty").hidden = true;
  container().append(element);
  element.scrollIntoView({ block: "end" });
  return element;
}

export function clearMessages() {
  for (const node of [...container().querySelectorAll(".message")]) node.remove();
  document.getElementById("empty").hidden = false;
}

export function appendUser(text) {
  const element = document.createElement("article");
  element.className = "message user";
  setHtml(element, `<div class="bubble">${escapeHtml(text).replace(/\n/g, "<br>")}</div>`);
  return append(element);
}

/** Human-readable notices for a finished turn's metadata (degraded stages, rejected citations). */
function noticesOf(meta) {
  const notices = [];
  const degraded = meta?.degraded || [];
  if (degraded.length) {
    notices.push(
      `Some stages were degraded (${degraded.join(", ")}); this answer may be less complete than usual.`,
    );
  }
  if (meta?.flagged)
    notices.push("Some citations in this answer could not be verified and were removed.");
  return notices;
}

/** One assistant answer; `threadId()` names the thread when feedback is sent. */
export class AnswerView {
  constructor(threadId) {
    this.threadId = threadId;
    this.element = document.createElement("article");
    this.element.className = "message assistant";
    this.answer = document.createElement("div");
    this.answer.className = "answer streaming";
    this.sources = document.createElement("div");
    this.sources.className = "message-sources";
    this.status = document.createElement("div");
    this.status.className = "message-status";
    this.footer = document.createElement("div");
    this.footer.className = "message-footer";
    this.element.append(this.answer, this.sources, this.status, this.footer);
    this.finished = false;
    append(this.element);
  }

  /** One more token frame: the whole text so far, markers as pending placeholders. */
  stream(text) {
    if (this.finished) return;
    this.tokens = (this.tokens || 0) + 1;
    this.answer.dataset.tokens = String(this.tokens);
    setHtml(this.answer, streamingHtml(text));
  }

  /** The final render, the same for a live turn and a reopened thread: the answer with its
   * badges, then the numbered source list. */
  finish(text, citations, source) {
    this.finished = true;
    setHtml(this.answer, answerHtml(text, citations));
    this.answer.className = "answer";
    this.answer.dataset.citationsFrom = source;
    const list = sourceList(citations);
    this.sources.replaceChildren(...(list ? [list] : []));
    citationsOf.set(
      this.element,
      new Map((citations || []).map((c) => [String(c.chunk_id).toLowerCase(), c])),
    );
  }

  /** Degraded stages and flags from the final frame (or the stored message's meta). */
  notices(meta) {
    const notices = noticesOf(meta);
    setHtml(this.status, notices.map((n) => `<p class="warning">${escapeHtml(n)}</p>`).join(""));
  }

  fail(message, retry) {
    this.answer.classList.remove("streaming");
    setHtml(this.status, `<p class="error">${escapeHtml(message)}</p>`);
    if (retry) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button retry";
      button.textContent = "Retry";
      button.addEventListener("click", retry, { once: true });
      this.status.append(button);
    }
  }

  /** Thumbs up/down and an optional comment, sent to POST /api/feedback; `given` ({score,
   * comment} or null) is the feedback stored earlier, shown as given when a thread is reopened. */
  feedback(messageId, given = null) {
    if (!messageId || this.footer.querySelector(".feedback")) return;
    const box = document.createElement("div");
    box.className = "feedback";
    const thumbs = [
      [1, "Helpful", "up"],
      [-1, "Not helpful", "down"],
    ].map(([value, label, glyph]) => {
      const thumb = document.createElement("button");
      thumb.type = "button";
      thumb.className = "thumb";
      thumb.dataset.score = String(value);
      thumb.title = label;
      thumb.setAttribute("aria-label", label);
      thumb.setAttribute("aria-pressed", "false");
      thumb.append(icon(glyph));
      return thumb;
    });
    const status = document.createElement("span");
    status.className = "feedback-status";
    status.setAttribute("role", "status");
    box.append(...thumbs, status);
    const comment = document.createElement("form");
    comment.className = "feedback-comment";
    comment.hidden = true;
    const input = document.createElement("input");
    input.type = "text";
    input.name = "comment";
    input.maxLength = 1000;
    input.placeholder = "Add a comment (optional)";
    input.setAttribute("aria-label", "Feedback comment");
    const submit = document.createElement("button");
    submit.type = "submit";
    submit.className = "button small";
    submit.textContent = "Send comment";
    comment.append(input, submit);
    let score = 0;
    const choose = (value) => {
      score = value;
      for (const thumb of thumbs)
        thumb.setAttribute("aria-pressed", String(Number(thumb.dataset.score) === value));
      comment.hidden = false;
    };
    const post = async (body) => {
      try {
        await api("POST", "/api/feedback", {
          thread_id: this.threadId(),
          message_id: messageId,
          ...body,
        });
        status.textContent = body.comment
          ? "Comment sent — thank you."
          : "Thanks for the feedback.";
      } catch (err) {
        status.textContent = err.message;
      }
    };
    for (const thumb of thumbs) {
      thumb.addEventListener("click", () => {
        choose(Number(thumb.dataset.score));
        post({ score });
      });
    }
    comment.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text && score) post({ score, comment: text });
      input.value = "";
    });
    if (given && (given.score === 1 || given.score === -1)) {
      choose(given.score);
      const rated = `You rated this ${given.score === 1 ? "helpful" : "not helpful"}.`;
      status.textContent = given.comment ? `${rated} Your comment: “${given.comment}”` : rated;
    }
    this.footer.append(box, comment);
  }
}

/** A stored message of GET /api/threads/{id}, rendered exactly like the live turn. */
export function renderStored(message, threadId) {
  if (message.role === "user" || message.role === "human") {
    appendUser(message.content);
    return;
  }
  const view = new AnswerView(threadId);
  view.finish(message.content, message.citations || [], "history");
  view.notices(message.meta || {});
  view.feedback(message.id, message.feedback);
}
