// The thread list: open, rename (inline), delete.

import { api } from "./api.js";
import { icon } from "./icons.js";

const list = () => document.getElementById("thread-list");

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
  const open = button("thread-open", title);
  if (thread.thread_id === actions.current()) open.setAttribute("aria-current", "true");
  open.addEventListener("click", () => actions.open(thread.thread_id));
  const rename = button("icon-button thread-rename", icon("edit"), `Rename “${title}”`);
  rename.addEventListener("click", () => startRename(li, open, thread, actions));
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
  li.append(open, rename, remove);
  return li;
}

function startRename(li, open, thread, actions) {
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
        open.textContent = title;
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
