// The sandbox's JSON API (bot/offline/web/api.py): the page never talks to the bot, only to this.

let pending = 0;

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
      body: JSON.stringify({ as, ...fields }),
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
  source.addEventListener("open", () => { document.body.dataset.live = "1"; });
  source.addEventListener("error", () => { document.body.dataset.live = "0"; });
  return source;
}

busy(0);
