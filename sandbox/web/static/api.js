// The sandbox's JSON API (sandbox/web/api.py): the page never talks to the bot, only to this.

let pending = 0;

// This tab's Slack client: a new id each time the page loads. The id of the page loaded before it in this tab
// (sessionStorage lives as long as the tab) lets the sandbox close the modals that page had open: Slack does not
// bring a modal back after its client reloads.
const CLIENT_KEY = "recount-sandbox-client";
function newClientId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
export const previousClient = (() => { try { return sessionStorage.getItem(CLIENT_KEY); } catch (e) { return null; } })();
export const client = newClientId();
try { sessionStorage.setItem(CLIENT_KEY, client); } catch (e) { /* storage off: a reload leaves modals open */ }

function busy(delta) {
  pending += delta;
  document.body.dataset.busy = pending > 0 ? "1" : "0";
}

export class ApiError extends Error {}

export async function getState(as) {
  const response = await fetch(`/api/state?as=${encodeURIComponent(as)}`, { cache: "no-store" });
  const body = await response.json();
  if (!response.ok || body.ok === false) throw new ApiError(body.error || `HTTP ${response.status}`);
  return body;
}

// POST /api/ACTION as `as`; the answer carries the person's new state.
export async function perform(action, as, fields) {
  busy(1);
  try {
    const response = await fetch(`/api/${action}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, cache: "no-store",
      body: JSON.stringify({ as, client, ...fields }),
    });
    let body;
    try {
      body = await response.json();
    } catch (error) {
      throw new ApiError(`The sandbox answered HTTP ${response.status}.`);
    }
    if (!response.ok || body.ok === false) throw new ApiError(body.error || `HTTP ${response.status}`);
    return body;
  } finally {
    busy(-1);
  }
}

// Live updates: `onChange(version)` whenever the Slack stand-in changes (server-sent events).
export function listen(since, onChange) {
  const source = new EventSource(`/api/events?since=${since}`);
  source.addEventListener("change", (event) => onChange(parseInt(event.data, 10)));
  // On (re)connecting too: the sandbox may have restarted behind the same port while the stream was down.
  source.addEventListener("open", () => { document.body.dataset.live = "1"; onChange(null); });
  source.addEventListener("error", () => { document.body.dataset.live = "0"; });
  return source;
}

busy(0);
