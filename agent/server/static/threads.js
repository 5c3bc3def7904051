// The thread list: open, rename (inline), delete. Each thread shows its short title (the first
// question cut at a word, or the name it was given), the day of its last turn, and the first
// question in full on hover. Titles and questions go in as text, never as HTML.

import { api } from "./api.js";
import { icon } from "./icons.js";

const list = () => document.getElementById("thread-list");

/** "2 Dec 2026" in the reader's time zone (the page is in English). */
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });

function dateOf(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const time = document.createElement("time");
  time.className = "thread-date";
  time.dateTime = iso;
  time.textContent = DAY.format(date);
  return time;
}

function button(className, content, label) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.append(content);
  if (label) {
    element.setAttribute("aria-label", label);
    element.title = label;
  }
  return element;
}

/**
 * Reload the list. `actions` = {open(id), deleted(id), current(), notify(message)}.
 */
export async function loadThreads(actions) {
  let threads;
  try {
    threads = await api("GET", "/api/threads");
  } catch (err) {
    actions.notify(err.message);
    return;
  }
  const items = threads.map((thread) => item(thread, actions));
  list().replaceChildren(...items);
}

function item(thread, actions) {
  const li = document.createElement("li");
  li.className = "thread";
  li.dataset.thread = thread.thread_id;
  if (thread.thread_id === actions.current()) li.classList.add("current");
  const title = thread.title || "Untitled conversation";
  const name = document.createElement("span");
  name.className = "thread-title";
  name.textContent = title;
  const open = button("thread-open", name);
  const date = dateOf(thread.updated_at);
  if (date) open.append(date);
  open.title = thread.question || title;
  if (thread.thread_id === actions.current()) open.setAttribute("aria-current", "true");
  open.addEventListener("click", () => actions.open(thread.thread_id));
  const rename = button("icon-button thread-rename", icon("edit"), `Rename “${title}”`);
  rename.addEventListener("click", () => startRename(li, open, name, thread, actions));
  const remove = button("icon-button thread-delete", icon("trash"), `Delete “${title}”`);
  remove.addEventListener("click", async () => {
    if (!window.confirm(`Delete “${title}”?`)) return;
    try {
      await api("DELETE", `/api/threads/${encodeURIComponent(thread.thread_id)}`);
      li.remove();
      actions.deleted(thread.thread_id);
    } catch (err) {
      actions.notify(err.message);
    }
  });
  const tools = document.createElement("div");
  tools.className = "thread-actions";
  tools.append(rename, remove);
  li.append(open, tools);
  return li;
}

function startRename(li, open, name, thread, actions) {
  const input = document.createElement("input");
  input.type = "text";
  input.className = "thread-title-input";
  input.value = thread.title || "";
  input.maxLength = 200;
  input.setAttribute("aria-label", "New conversation title (Enter to save, Escape to cancel)");
  open.replaceWith(input);
  input.focus();
  input.select();
  let done = false;
  const finish = async (save) => {
    if (done) return;
    done = true;
    const title = input.value.trim();
    if (save && title && title !== thread.title) {
      try {
        await api("PATCH", `/api/threads/${encodeURIComponent(thread.thread_id)}`, { title });
        thread.title = title;
        name.textContent = title;
      } catch (err) {
        actions.notify(err.message);
      }
    }
    input.replaceWith(open);
    open.focus();
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      finish(true);
    } else if (event.key === "Escape") {
      event.stopPropagation();
      finish(false);
    }
  });
  input.addEventListener("blur", () => finish(true));
}
