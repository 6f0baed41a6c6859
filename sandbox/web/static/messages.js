// Messages as Slack lists them: author, APP badge and time; the blocks (or the text when there are none);
// "(edited)"; files and legacy attachments; reactions; the thread summary; and for an ephemeral message
// "Only visible to you" with "Dismiss message".

import { h, avatar, timeOf, dayOf } from "./dom.js";
import { renderBlocks } from "./blocks.js";
import { mrkdwn, textObject, plainText } from "./mrkdwn.js";
import { emoji } from "./emoji.js";

const GROUP_SECONDS = 5 * 60;  // Slack folds a person's messages posted within minutes under one header

// messages: oldest first. opts: {ctxFor(message) -> ctx, onThread(ts), onDismiss(message), tz, inThread}
export function renderMessageList(messages, opts) {
  const list = h("div", { class: "message-list" });
  let previous = null;
  let lastDay = null;
  for (const message of messages) {
    const day = dayOf(message.ts, opts.tz);
    if (!opts.inThread && day !== lastDay) {
      list.append(h("div", { class: "day-divider", role: "separator" }, h("span", { class: "day-label" }, day)));
      previous = null;
    }
    lastDay = day;
    const grouped = previous && !message.is_ephemeral && !previous.is_ephemeral && previous.user === message.user
      && parseFloat(message.ts) - parseFloat(previous.ts) < GROUP_SECONDS && !previous.reply_count;
    list.append(renderMessage(message, { ...opts, grouped }));
    previous = message;
  }
  return list;
}

export function renderMessage(message, opts) {
  const ctx = opts.ctxFor(message);
  const users = ctx.users || {};
  const author = users[message.user] || { name: message.username || "unknown", real_name: message.username || "unknown" };
  const isBot = Boolean(message.bot_id || author.is_bot || message.from_slack);
  const name = message.bot_profile ? message.bot_profile.name : author.real_name || author.name;
  const node = h("div", {
    class: ["message", message.is_ephemeral && "message-ephemeral", opts.grouped && "message-grouped",
      message.subtype === "tombstone" && "message-tombstone"],
    dataset: { ts: message.ts, user: message.user || "", ephemeral: message.is_ephemeral ? "1" : "" },
  });
  if (message.is_ephemeral) {
    node.append(h("div", { class: "ephemeral-label" }, h("span", { class: "eye", "aria-hidden": "true" }), "Only visible to you"));
  }
  const gutter = h("div", { class: "message-gutter" },
    opts.grouped ? h("span", { class: "message-hover-time" }, timeOf(message.ts, opts.tz).replace(/\s?[AP]M$/, ""))
      : avatar({ ...author, is_bot: isBot, real_name: name }));
  const body = h("div", { class: "message-body" });
  if (!opts.grouped) {
    body.append(h("div", { class: "message-meta" },
      h("span", { class: "message-author" }, name),
      isBot && !message.from_slack ? h("span", { class: "badge-app" }, "APP") : null,
      h("time", { class: "message-time", title: timeOf(message.ts, opts.tz, true) }, timeOf(message.ts, opts.tz))));
  }
  const content = h("div", { class: "message-content" });
  if (message.subtype === "tombstone") {
    content.append(h("span", { class: "tombstone" }, "This message was deleted."));
  } else if (message.blocks && message.blocks.length) {
    content.append(renderBlocks(message.blocks, ctx));
  } else {
    content.append(h("div", { class: "message-text" }, mrkdwn(message.text || "", ctx)));
  }
  if (message.edited) {
    // Slack writes "(edited)" at the end of the message's last text, or after it.
    const edited = h("span", { class: "message-edited", title: "edited" }, "(edited)");
    const texts = content.querySelectorAll(".section-text, .context-item, .message-text, .rich-section");
    const target = texts.length ? texts[texts.length - 1] : null;
    const lastBlock = content.querySelector(".blocks > :last-child");
    if (target && (!lastBlock || lastBlock.contains(target))) target.append(" ", edited);
    else content.append(edited);
  }
  body.append(content);
  if (message.attachments && message.attachments.length) body.append(attachments(message.attachments, ctx));
  if (message.files && message.files.length) body.append(files(message.files));
  if (message.reactions && message.reactions.length) body.append(reactions(message.reactions, ctx));
  if (!opts.inThread && message.reply_count) body.append(threadSummary(message, ctx, opts));
  if (message.is_ephemeral && opts.onDismiss) {
    body.append(h("button", { type: "button", class: "link-button dismiss", onclick: () => opts.onDismiss(message) },
      "Dismiss message"));
  }
  node.append(gutter, body);
  return node;
}

function threadSummary(message, ctx, opts) {
  const repliers = (message.reply_users || []).slice(0, 3).map((id) => avatar((ctx.users || {})[id], "tiny"));
  const count = message.reply_count;
  const last = message.latest_reply ? `Last reply ${dayOf(message.latest_reply, opts.tz) === dayOf(message.ts, opts.tz)
    ? "at" : "on " + dayOf(message.latest_reply, opts.tz) + " at"} ${timeOf(message.latest_reply, opts.tz)}` : "";
  return h("button", { type: "button", class: "thread-summary", onclick: () => opts.onThread(message.ts) },
    h("span", { class: "thread-avatars" }, repliers),
    h("span", { class: "thread-count" }, `${count} ${count === 1 ? "reply" : "replies"}`),
    h("span", { class: "thread-last" }, last),
    h("span", { class: "thread-view" }, "View thread"));
}

function files(items) {
  return h("div", { class: "message-files" }, items.map((file) => {
    const kind = (file.filetype || file.pretty_type || "file").toUpperCase().slice(0, 4);
    const size = file.size ? `${kind} · ${Math.max(1, Math.round(file.size / 1024))} KB` : kind;
    return h("a", { class: "file-card", href: file.sandbox_url || "#", target: "_blank", rel: "noopener",
      title: `Open ${file.name}` },
      h("span", { class: `file-icon file-icon-${kind.toLowerCase()}` }, kind),
      h("span", { class: "file-text" }, h("span", { class: "file-name" }, file.title || file.name),
        h("span", { class: "file-size" }, size)));
  }));
}

function attachments(items, ctx) {
  return h("div", { class: "attachments" }, items.map((item) => {
    const node = h("div", { class: "attachment" });
    const bar = h("span", { class: "attachment-bar" });
    const colours = { good: "#2eb67d", warning: "#ecb22e", danger: "#e01e5a" };
    bar.style.backgroundColor = colours[item.color] || (item.color ? `#${String(item.color).replace(/^#/, "").replace(/[^0-9a-f]/gi, "")}` : "#dddddd");
    const body = h("div", { class: "attachment-body" });
    if (item.pretext) body.append(h("div", { class: "attachment-pretext" }, mrkdwn(item.pretext, ctx)));
    if (item.title) body.append(h("div", { class: "attachment-title" }, plainText(item.title)));
    if (item.blocks) body.append(renderBlocks(item.blocks, ctx));
    if (item.text) body.append(h("div", { class: "attachment-text" }, mrkdwn(item.text, ctx)));
    if (item.fields) {
      body.append(h("div", { class: "section-fields" }, item.fields.map((field) => h("div", { class: "section-field" },
        h("b", {}, plainText(field.title || "")), h("br"), mrkdwn(field.value || "", ctx)))));
    }
    if (item.footer) body.append(h("div", { class: "attachment-footer" }, mrkdwn(item.footer, ctx)));
    node.append(bar, body);
    return node;
  }));
}

function reactions(items, ctx) {
  return h("div", { class: "reactions" }, items.map((reaction) => h("span", {
    class: ["reaction", (reaction.users || []).includes(ctx.me) && "reaction-mine"],
    title: (reaction.users || []).map((id) => ((ctx.users || {})[id] || {}).name || id).join(", "),
  }, emoji(reaction.name) || `:${reaction.name}:`, " ", String(reaction.count))));
}

export { textObject };
