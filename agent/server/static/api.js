// The HTTP API: auth header, JSON calls, chat over SSE (POST + ReadableStream), readable errors.

const KEY = "bosunKey";

/** `?key=` is stored to localStorage (and dropped from the address bar); local mode needs none. */
export function adoptKeyFromUrl() {
  const url = new URL(window.location.href);
  const key = url.searchParams.get("key");
  if (key) {
    localStorage.setItem(KEY, key);
    url.searchParams.delete("key");
    window.history.replaceState(null, "", url);
  }
}

function headers(extra = {}) {
  const key = localStorage.getItem(KEY);
  return key ? { ...extra, Authorization: `Bearer ${key}` } : extra;
}

/** An error a person can read: never a stack trace. */
export class ApiError extends Error {
  constructor(message, status = 0, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

const DOWN = "Cannot reach the Bosun server. Check that it is running, then retry.";

async function failure(response) {
  let detail = "";
  try {
    const body = await response.json();
    detail = typeof body.detail === "string" ? body.detail : body.message || body.error || "";
  } catch {
    detail = "";
  }
  if (response.status === 429) {
    const after = Number.parseInt(response.headers.get("Retry-After") || "", 10);
    const wait = Number.isFinite(after) ? `try again in ${after} s` : "try again shortly";
    return new ApiError(`Too many requests — ${wait}.`, 429, Number.isFinite(after) ? after : null);
  }
  if (response.status === 401) {
    const why = detail ? `Not authorised (${detail})` : "Not authorised";
    return new ApiError(`${why}: open the page once as /?key=<your API key>.`, 401);
  }
  if (response.status >= 500) {
    return new ApiError(
      detail && detail.length < 200 ? detail : "The server failed to answer. Please retry.",
      response.status,
    );
  }
  return new ApiError(detail || `Request failed (${response.status}).`, response.status);
}

async function send(method, path, body, signal) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: headers(body === undefined ? {} : { "Content-Type": "application/json" }),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ApiError(DOWN);
  }
  if (!response.ok) throw await failure(response);
  return response;
}

export async function api(method, path, body) {
  const response = await send(method, path, body);
  return response.status === 204 ? null : response.json();
}

/** POST /api/chat; calls onEvent(name, data) per SSE frame until the stream ends. */
export async function chat(request, onEvent, signal) {
  const response = await send("POST", "/api/chat", request, signal);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (err) {
      if (err.name === "AbortError") throw err;
      throw new ApiError("The connection to the server was lost mid-answer. Please retry.");
    }
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true }).replace(/\r\n?/g, "\n");
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      dispatch(buffer.slice(0, end), onEvent);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
    }
  }
  if (buffer.trim()) dispatch(buffer, onEvent);
}

function dispatch(frame, onEvent) {
  let name = "message";
  const data = [];
  for (const line of frame.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return;
  let parsed;
  try {
    parsed = JSON.parse(data.join("\n"));
  } catch {
    return;
  }
  onEvent(name, parsed);
}
