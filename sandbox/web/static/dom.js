// Building DOM nodes without ever parsing HTML: every text a person or the bot wrote becomes a text node,
// so nothing typed into a form or sent by the bot can inject markup.

export function h(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node && !["list", "form", "type"].includes(key)) node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// A safe link: only web and mail addresses become links; anything else stays text.
export function safeHref(url) {
  try {
    const parsed = new URL(url, window.location.href);
    return ["http:", "https:", "mailto:"].includes(parsed.protocol) ? parsed.href : null;
  } catch (error) {
    return null;
  }
}

// Times as the person's Slack client shows them: in their own time zone.
export function timeOf(ts, tz, withDate = false) {
  const date = new Date(parseFloat(ts) * 1000);
  const options = { timeZone: tz, hour: "numeric", minute: "2-digit" };
  if (withDate) Object.assign(options, { weekday: "long", month: "long", day: "numeric", year: "numeric" });
  return new Intl.DateTimeFormat("en-US", options).format(date);
}

export function dayOf(ts, tz) {
  const date = new Date(parseFloat(ts) * 1000);
  return new Intl.DateTimeFormat("en-US", { timeZone: tz, weekday: "long", month: "long", day: "numeric" })
    .format(date);
}

// "YYYY-MM-DDTHH:MM" of an epoch second, in `tz` (for a date-and-time picker's initial value).
export function localInput(epoch, tz) {
  const parts = {};
  const format = new Intl.DateTimeFormat("en-CA", {
    timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
    hourCycle: "h23",
  });
  for (const part of format.formatToParts(new Date(epoch * 1000))) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

export function initials(name) {
  const words = String(name || "?").replace(/[^\p{L}\p{N} ]/gu, " ").trim().split(/\s+/);
  return ((words[0] || "?")[0] + (words.length > 1 ? words[words.length - 1][0] : "")).toUpperCase();
}

const AVATAR_COLOURS = ["#2b6fbd", "#c4453c", "#2e8a57", "#b5651d", "#7b4fa0", "#0f7b7b"];

export function avatar(user, size = "large") {
  const name = user ? user.real_name || user.name : "?";
  const colour = user && user.is_bot ? "#4a154b"
    : AVATAR_COLOURS[[...String(name)].reduce((sum, c) => sum + c.charCodeAt(0), 0) % AVATAR_COLOURS.length];
  const node = h("span", { class: ["avatar", `avatar-${size}`], title: name, "aria-hidden": "true" },
    initials(name));
  node.style.backgroundColor = colour;
  return node;
}
