// The chat page: one turn at a time over SSE, filters as chips, threads, keyboard and phone layouts.

import { adoptKeyFromUrl, api, chat } from "./api.js";
import { AnswerView, appendUser, clearMessages, renderStored } from "./messages.js";
import { bindBadges, closePanel } from "./panel.js";
import { escapeHtml, filterChips, setHtml } from "./render.js";
import { loadThreads } from "./threads.js";

/** Badges fall back to the final frame when the citations frame is this late after the text. */
const CITATIONS_FALLBACK_MS = 3000;

const $ = (id) => document.getElementById(id);
const state = { threadId: null, controller: null };

function notify(message) {
  const notice = $("notice");
  notice.textContent = message || "";
  notice.hidden = !message;
}

function setThread(threadId) {
  state.threadId = threadId;
  const url = new URL(window.location.href);
  if (threadId) url.searchParams.set("thread", threadId);
  else url.searchParams.delete("thread");
  window.history.replaceState(null, "", url);
}

function setBusy(busy) {
  $("send").disabled = busy;
  $("stop").hidden = !busy;
}

function showFilters(filters) {
  const chips = filterChips(filters);
  $("filters").hidden = !chips.length;
  const items = chips.map(({ name, label }) => {
    const li = document.createElement("li");
    li.className = "chip";
    li.dataset.filter = name;
    setHtml(li, `<span class="chip-label">${escapeHtml(label)}</span>`);
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "chip-remove";
    remove.textContent = "\u00D7";
    remove.setAttribute("aria-label", `Remove filter ${label}`);
    remove.addEventListener("click", () => removeFilter(name));
    li.append(remove);
    return li;
  });
  $("filter-chips").replaceChildren(...items);
}

async function removeFilter(name) {
  if (!state.threadId) return;
  try {
    const body = await api("POST", `/api/threads/${encodeURIComponent(state.threadId)}/filters`, {
      remove: [name],
    });
    showFilters(body.filters);
    $("message").focus();
  } catch (err) {
    notify(err.message);
  }
}

/** One turn: stream tokens, then badges from the citations frame (or the final frame after 3 s). */
async function ask(message) {
  notify("");
  const view = new AnswerView(() => state.threadId);
  const controller = new AbortController();
  state.controller = controller;
  setBusy(true);
  let text = "";
  let final = null;
  let rendered = false;
  let fallbackDue = false;
  let timer = null;
  const render = (source, answer, citations) => {
    if (rendered) return;
    rendered = true;
    clearTimeout(timer);
    view.finish(answer, citations, source);
  };
  const armFallback = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      fallbackDue = true;
      if (final) render("final", final.answer, final.citations);
    }, CITATIONS_FALLBACK_MS);
  };
  const onEvent = (name, data) => {
    if (name === "meta") {
      if (data.thread_id && data.thread_id !== state.threadId) setThread(data.thread_id);
    } else if (name === "token") {
      text += data.text || "";
      view.stream(text);
      armFallback();
    } else if (name === "citations") {
      render("citations", data.answer, data.citations);
    } else if (name === "final") {
      final = data;
      if (fallbackDue) render("final", data.answer, data.citations);
      else if (!rendered && timer === null) armFallback();
      view.notices(data);
      view.feedback(data.message_id);
      showFilters(data.filters);
    } else if (name === "error") {
      throw new Error(data.message || "The answer failed. Please retry.");
    }
  };
  try {
    await chat({ thread_id: state.threadId, message, filters: null }, onEvent, controller.signal);
    if (!rendered && final) render("final", final.answer, final.citations);
    if (!rendered)
      view.fail("The answer ended before it was complete.", () => retry(view, message));
  } catch (err) {
    clearTimeout(timer);
    controller.abort();
    if (err.name === "AbortError") view.fail("Stopped.", () => retry(view, message));
    else view.fail(err.message, () => retry(view, message));
  } finally {
    if (state.controller === controller) {
      state.controller = null;
      setBusy(false);
    }
    refreshThreads();
  }
}

function retry(view, message) {
  view.element.remove();
  ask(message);
}

async function openThread(threadId) {
  state.controller?.abort(); // the server finishes that turn; it shows when its thread is opened
  closePanel();
  notify("");
  let thread;
  try {
    thread = await api("GET", `/api/threads/${encodeURIComponent(threadId)}`);
  } catch (err) {
    notify(err.status === 404 ? "That conversation no longer exists." : err.message);
    if (err.status === 404) setThread(null);
    return;
  }
  clearMessages();
  setThread(thread.thread_id);
  for (const message of thread.messages || []) renderStored(message, () => state.threadId);
  showFilters(thread.filters);
  showThreads(false);
  refreshThreads();
}

function newThread() {
  state.controller?.abort();
  closePanel();
  clearMessages();
  setThread(null);
  showFilters(null);
  refreshThreads();
  $("message").focus();
}

function refreshThreads() {
  loadThreads({
    open: openThread,
    current: () => state.threadId,
    notify,
    deleted: (id) => {
      if (id === state.threadId) newThread();
    },
  });
}

/** The thread drawer at phone width (always shown on wider screens). */
function showThreads(open) {
  document.body.classList.toggle("threads-open", open);
  $("toggle-threads").setAttribute("aria-expanded", String(open));
}

function submit() {
  const box = $("message");
  const message = box.value.trim();
  if (!message || state.controller) return;
  box.value = "";
  appendUser(message);
  ask(message);
}

function bind() {
  $("composer").addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  $("message").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  $("stop").addEventListener("click", () => state.controller?.abort());
  $("new-thread").addEventListener("click", newThread);
  $("toggle-threads").addEventListener("click", () => {
    showThreads(!document.body.classList.contains("threads-open"));
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") showThreads(false);
  });
  bindBadges($("messages"));
}

adoptKeyFromUrl();
bind();
const initial = new URL(window.location.href).searchParams.get("thread");
if (initial) openThread(initial);
else refreshThreads();
