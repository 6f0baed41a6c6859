// Slack's mrkdwn, rendered as Slack's client renders it: *bold*, _italic_, ~strike~, `code`, ```preformatted```,
// > quotes (and >>> for the rest), <@U…> mentions, <#C…|name> channels, <url|text> links, <!here>, <!date^…>,
// :emoji: shortcodes and line breaks. Only &amp; &lt; &gt; are entities in Slack's text; they are decoded
// last, into text nodes, so an escaped "<b>" stays the text "<b>".

import { h, safeHref } from "./dom.js";
import { emoji } from "./emoji.js";

const PLACEHOLDER = /[\uE000-\uF8FF]/g;
const EMPHASIS = [
  ["b", /(?<![\p{L}\p{N}_*])\*(?=\S)([^*\n]*?\S)\*(?![\p{L}\p{N}_*])/u],
  ["i", /(?<![\p{L}\p{N}_])_(?=\S)([^_\n]*?\S)_(?![\p{L}\p{N}_])/u],
  ["s", /(?<![\p{L}\p{N}_~])~(?=\S)([^~\n]*?\S)~(?![\p{L}\p{N}_~])/u],
];
const ATOMS = /(`[^`\n]+`)|(<[^<>\n]+>)|(\bhttps?:\/\/[^\s<>]*[^\s<>.,;:!?)\]'"])|(:[a-z0-9_+'-]+:)/gi;

export function decode(text) {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

// A text object ({type: "mrkdwn"|"plain_text", text}) as a fragment.
export function textObject(obj, ctx) {
  if (!obj) return document.createDocumentFragment();
  if (typeof obj === "string") return plainText(obj, true);
  return obj.type === "mrkdwn" ? mrkdwn(obj.text || "", ctx, { verbatim: obj.verbatim }) : plainText(obj.text || "", obj.emoji !== false);
}

// plain_text: no formatting, no entities; :emoji: codes only when `emoji` is on (Slack's default).
export function plainText(text, withEmoji = true) {
  const out = document.createDocumentFragment();
  const lines = String(text).split("\n");
  lines.forEach((line, index) => {
    if (index) out.append(h("br"));
    if (!withEmoji) { out.append(line); return; }
    let last = 0;
    for (const match of line.matchAll(/:([a-z0-9_+'-]+):/gi)) {
      const found = emoji(match[1]);
      if (found === null) continue;
      out.append(line.slice(last, match.index), emojiNode(match[1], found));
      last = match.index + match[0].length;
    }
    out.append(line.slice(last));
  });
  return out;
}

export function mrkdwn(text, ctx, options = {}) {
  const out = document.createDocumentFragment();
  const parts = String(text).split(/```/);
  parts.forEach((part, index) => {
    if (index % 2 === 1 && index < parts.length - 1) {
      out.append(h("pre", { class: "md-pre" }, decode(part.replace(/^\n/, "").replace(/\n$/, ""))));
      return;
    }
    let chunk = index % 2 === 1 ? "```" + part : part;  // an unclosed ``` is text
    if (index > 0 && index % 2 === 0) chunk = chunk.replace(/^\n/, "");  // just after a code block
    if (index < parts.length - 1) chunk = chunk.replace(/\n$/, "");  // just before one
    if (chunk) out.append(blocksOf(chunk, ctx, options));
  });
  return out;
}

// Lines, with runs of quoted lines ("> ", or ">>>" for all the rest) as block quotes.
function blocksOf(text, ctx, options) {
  const out = document.createDocumentFragment();
  const lines = text.split("\n");
  let plain = [];
  let quoted = [];
  const flushPlain = () => {
    if (plain.length) out.append(inline(plain.join("\n"), ctx, options));
    plain = [];
  };
  const flushQuote = () => {
    if (quoted.length) out.append(h("blockquote", { class: "md-quote" }, inline(quoted.join("\n"), ctx, options)));
    quoted = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    const rest = line.match(/^(?:&gt;|>){3}\s?(.*)$/);
    if (rest) {
      flushPlain();
      quoted.push(rest[1], ...lines.slice(i + 1));
      break;
    }
    const quote = line.match(/^(?:&gt;|>)\s?(.*)$/);
    if (quote) {
      if (plain.length) { flushPlain(); }
      quoted.push(quote[1]);
    } else {
      if (quoted.length) flushQuote();
      plain.push(line);
    }
  }
  flushQuote();
  flushPlain();
  return out;
}

// One run of text: atoms (code, <…>, bare links, emoji) first, then emphasis around them.
function inline(text, ctx, options) {
  const atoms = [];
  const marked = text.replace(ATOMS, (whole, code, control, url, shortcode) => {
    let node = null;
    if (code) node = h("code", { class: "md-code" }, decode(code.slice(1, -1)));
    else if (control) node = controlNode(control.slice(1, -1), ctx);
    else if (url) node = options.verbatim ? null : linkNode(url, url, ctx);
    else if (shortcode) {
      const found = emoji(shortcode.slice(1, -1));
      node = found === null ? null : emojiNode(shortcode.slice(1, -1), found);
    }
    if (node === null) return whole;
    atoms.push(node);
    return String.fromCharCode(0xe000 + atoms.length - 1);
  });
  return emphasis(marked, atoms);
}

function emphasis(text, atoms) {
  const out = document.createDocumentFragment();
  let rest = text;
  while (rest) {
    let best = null;
    for (const [tag, pattern] of EMPHASIS) {
      const match = pattern.exec(rest);
      if (match && (best === null || match.index < best.match.index)) best = { tag, match };
    }
    if (best === null) break;
    out.append(expand(rest.slice(0, best.match.index), atoms));
    out.append(h(best.tag, { class: `md-${best.tag}` }, emphasis(best.match[1], atoms)));
    rest = rest.slice(best.match.index + best.match[0].length);
  }
  out.append(expand(rest, atoms));
  return out;
}

function expand(text, atoms) {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    out.append(lines(decode(text.slice(last, match.index))));
    const atom = atoms[match[0].charCodeAt(0) - 0xe000];
    // The node itself (a permalink keeps its click handler); a copy only if it is somehow used twice.
    out.append(atom ? (atom.parentNode ? atom.cloneNode(true) : atom) : match[0]);
    last = match.index + 1;
  }
  out.append(lines(decode(text.slice(last))));
  return out;
}

function lines(text) {
  const out = document.createDocumentFragment();
  text.split("\n").forEach((line, index) => {
    if (index) out.append(h("br"));
    if (line) out.append(line);
  });
  return out;
}

function emojiNode(name, character) {
  return h("span", { class: "emoji", title: `:${name}:`, role: "img", "aria-label": name }, character);
}

// A link; a permalink to a message of this workspace opens it here, as Slack's client does.
function linkNode(url, label, ctx) {
  const href = safeHref(decode(url));
  if (!href) return null;
  const jump = ctx && ctx.permalink ? ctx.permalink(href) : null;
  const node = h("a", { class: "md-link", href, target: "_blank", rel: "noopener noreferrer" }, decode(label));
  if (jump) {
    node.removeAttribute("target");
    node.addEventListener("click", (event) => { event.preventDefault(); jump(); });
  }
  return node;
}

// <@U123|name>, <#C123|name>, <!here>, <!subteam^S1|@team>, <!date^1700000000^{date_short}|fallback>, <url|text>
function controlNode(inner, ctx) {
  const bar = inner.indexOf("|");
  const target = bar >= 0 ? inner.slice(0, bar) : inner;
  const label = bar >= 0 ? inner.slice(bar + 1) : "";
  if (target.startsWith("@")) {
    const id = target.slice(1);
    const user = ctx && ctx.users ? ctx.users[id] : null;
    const name = user ? user.name : label || id;
    return h("span", { class: ["mention", ctx && ctx.me === id && "mention-me"], title: user ? user.real_name : id },
      "@" + decode(name));
  }
  if (target.startsWith("#")) {
    const id = target.slice(1);
    const channel = ctx && ctx.channelName ? ctx.channelName(id) : null;
    return h("span", { class: "mention", title: id }, "#" + decode(label || channel || id));
  }
  if (target.startsWith("!date^")) {
    const [, epoch, format] = target.split("^");
    return h("span", { class: "md-date" }, formatDate(parseInt(epoch, 10), format, ctx) || decode(label));
  }
  if (target.startsWith("!subteam^")) return h("span", { class: "mention" }, decode(label || "@group"));
  if (target.startsWith("!")) {
    const word = target.slice(1).split("^")[0];
    return h("span", { class: "mention mention-broadcast" }, "@" + decode(label || word));
  }
  return linkNode(target, label || target, ctx) || h("span", {}, decode(label || target));
}

function formatDate(epoch, format, ctx) {
  if (!Number.isFinite(epoch) || !format) return "";
  const date = new Date(epoch * 1000);
  const tz = (ctx && ctx.tz) || undefined;
  const fmt = (options) => new Intl.DateTimeFormat("en-US", { timeZone: tz, ...options }).format(date);
  const tokens = {
    date_num: () => new Intl.DateTimeFormat("en-CA", { timeZone: tz }).format(date),
    date: () => fmt({ month: "long", day: "numeric", year: "numeric" }),
    date_short: () => fmt({ month: "short", day: "numeric", year: "numeric" }),
    date_long: () => fmt({ weekday: "long", month: "long", day: "numeric", year: "numeric" }),
    date_pretty: () => fmt({ month: "long", day: "numeric", year: "numeric" }),
    date_short_pretty: () => fmt({ month: "short", day: "numeric", year: "numeric" }),
    date_long_pretty: () => fmt({ weekday: "long", month: "long", day: "numeric", year: "numeric" }),
    time: () => fmt({ hour: "numeric", minute: "2-digit" }),
    time_secs: () => fmt({ hour: "numeric", minute: "2-digit", second: "2-digit" }),
  };
  return format.replace(/\{(\w+)\}/g, (whole, token) => (tokens[token] ? tokens[token]() : whole));
}
