// The sandbox's Slack-like client: the sidebar (the channel, the app), the channel with its messages and
// threads, the app's Home / Messages / About tabs, the composer, the user switcher, modals; live updates.

import { h, clear, avatar } from "./dom.js";
import { getState, perform, listen, ApiError, previousClient } from "./api.js";
import { renderMessageList, renderMessage } from "./messages.js";
import { renderBlocks } from "./blocks.js";
import { ModalLayer, confirmDialog } from "./modal.js";
import { Composer } from "./composer.js";

const ui = {
  state: null,
  as: "official",
  where: { app: null, channel: null },  // app: "home" | "messages" | "about"; else a channel id
  thread: null,  // {channel, ts}
  keys: {},
  seen: {},  // "user:conversation" -> latest ts seen, for unread marks
  composer: null,
  threadComposer: null,
  stickToBottom: true,
  clockOffset: 0,
};
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ start
function readHash() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  ui.as = params.get("as") || ui.as;
  ui.where = params.get("app") ? { app: params.get("app"), channel: null } : { app: null, channel: params.get("c") };
}

function writeHash() {
  const params = new URLSearchParams({ as: ui.as });
  if (ui.where.app) params.set("app", ui.where.app);
  else if (ui.where.channel) params.set("c", ui.where.channel);
  window.history.replaceState(null, "", `#${params}`);
}

async function start() {
  readHash();
  ui.modals = new ModalLayer($("modal-root"), {
    perform: (action, fields) => perform(action, ui.as, fields),
    viewAction, applyState, toast, refocus: () => ui.composer && ui.composer.focus(),
  });
  try {
    await getState(ui.as);
  } catch (error) {
    ui.as = "official";
  }
  // A reload is a new Slack client: the modals the page before it had open are closed, not shown again.
  const opened = previousClient ? await perform("reload", ui.as, { previous: previousClient }) : null;
  applyState(opened ? opened.state : await getState(ui.as));
  listen(ui.state.version, () => scheduleRefresh());
  setInterval(renderClock, 15000);
  if (ui.where.app) openApp(ui.where.app);
}

let refreshTimer = null;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 60);
}

async function refresh() {
  try {
    const state = await getState(ui.as);
    if (!ui.state || state.version !== ui.state.version || state.me.key !== ui.state.me.key
        || state.session !== ui.state.session) applyState(state);
    return state;
  } catch (error) {
    toast(`The sandbox is not answering: ${error.message}`);
  }
}

function applyState(state) {
  // An answer for someone else (the person was switched while it travelled) or older than what is shown: ignored.
  if (!state || state.me.key !== ui.as) return;
  const restarted = ui.state && state.session !== ui.state.session;  // a new sandbox behind the same port
  if (restarted) { ui.keys = {}; ui.modals.forget(); }
  if (!restarted && ui.state && state.me.key === ui.state.me.key && state.version < ui.state.version) return;
  ui.state = state;
  ui.clockOffset = Date.parse(state.now) - Date.now();
  if (!ui.where.app && !conversation(ui.where.channel)) ui.where.channel = state.default_channel;
  writeHash();
  document.body.dataset.version = String(state.version);
  document.body.dataset.as = state.me.key;
  render();
}

// ------------------------------------------------------------------ reading the state
function conversation(id) {
  return ui.state ? ui.state.conversations.find((c) => c.id === id) : null;
}

function dm() {
  return ui.state.conversations.find((c) => c.is_im && c.user === ui.state.me.user_id) || null;
}

function baseCtx() {
  const state = ui.state;
  return {
    users: state.users, me: state.me.user_id, tz: state.me.tz, conversations: state.conversations,
    channelName: (id) => { const c = conversation(id); return c && !c.is_im ? c.name : null; },
    permalink,
  };
}

// https://<team>.slack.com/archives/C…/p1793980804816679[?thread_ts=…]: a jump to that message, here.
function permalink(href) {
  const found = href.match(/^https:\/\/([\w-]+)\.slack\.com\/archives\/([A-Z0-9]+)\/p(\d{10})(\d{6})(?:\?(.*))?$/);
  if (!found || found[1] !== ui.state.team.domain || !conversation(found[2])) return null;
  const channel = found[2];
  const ts = `${found[3]}.${found[4]}`;
  const thread = new URLSearchParams(found[5] || "").get("thread_ts");
  return () => {
    if (ui.where.app || ui.where.channel !== channel) openChannel(channel);
    if (thread) openThread(channel, thread);
    const node = document.querySelector(`${thread ? "#thread" : "#main"} .message[data-ts="${ts}"]`);
    if (node) {
      node.scrollIntoView({ block: "center" });
      node.classList.add("is-highlighted");
      setTimeout(() => node.classList.remove("is-highlighted"), 2500);
    }
  };
}

function messageCtx(channelId, message) {
  return { ...baseCtx(), action: (element, blockId, state, node) => messageAction(channelId, message, element, blockId, state, node) };
}

// ------------------------------------------------------------------ acting
async function act(action, fields, node) {
  if (node) { node.classList.add("is-loading"); node.disabled = true; }
  try {
    const result = await perform(action, ui.as, fields);
    applyState(result.state);
    return result;
  } catch (error) {
    toast(error instanceof ApiError ? error.message : `The sandbox failed: ${error.message}`);
    return null;
  } finally {
    if (node && node.isConnected) { node.classList.remove("is-loading"); node.disabled = false; }
  }
}

async function messageAction(channelId, message, element, blockId, state, node) {
  if (element.confirm && !(await confirmDialog(element.confirm, baseCtx()))) return;
  await act("act", {
    channel: message.channel || channelId, ts: message.ts, ephemeral: Boolean(message.is_ephemeral),
    block_id: blockId, action_id: element.action_id, value: element.value, state,
  }, element.type === "button" ? node : null);
}

async function viewAction(view, element, blockId, state, values, node) {
  if (element.confirm && !(await confirmDialog(element.confirm, baseCtx()))) return;
  await act("view_act", {
    view_id: view.id, block_id: blockId, action_id: element.action_id, value: element.value, state, values,
  }, element.type === "button" ? node : null);
}

function send(text, channel, threadTs) {
  ui.stickToBottom = true;
  return act("command", { text, channel, thread_ts: threadTs });
}

function switchUser(key) {
  ui.as = key;
  ui.thread = null;
  ui.keys = {};
  writeHash();
  refresh().then(() => { if (ui.where.app) openApp(ui.where.app); });
}

function openChannel(id) {
  ui.where = { app: null, channel: id };
  ui.stickToBottom = true;
  writeHash();
  render();
}

function openApp(tab) {
  ui.where = { app: tab, channel: null };
  ui.thread = null;
  ui.stickToBottom = true;
  writeHash();
  render();
  // Slack tells the app each time a person opens its Home (or Messages) tab.
  if (tab === "home" || tab === "messages") act("home", { tab });
}

function openThread(channel, ts) {
  ui.thread = { channel, ts };
  render();
}

// ------------------------------------------------------------------ rendering
function changed(name, value) {
  const key = JSON.stringify(value);
  if (ui.keys[name] === key) return false;
  ui.keys[name] = key;
  return true;
}

function render() {
  renderTopbar();
  renderSidebar();
  renderMain();
  renderThread();
  ui.modals.render(ui.state.modals || [], baseCtx(), ui.as);
}

function renderClock() {
  const node = $("clock");
  if (!node || !ui.state) return;
  const now = new Date(Date.now() + ui.clockOffset);
  node.textContent = new Intl.DateTimeFormat("en-US", { timeZone: ui.state.me.tz, weekday: "short", month: "short",
    day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" }).format(now);
}

function renderTopbar() {
  const state = ui.state;
  if (!changed("topbar", [state.me, state.people, state.team])) { renderClock(); return; }
  const bar = clear($("topbar"));
  const switcher = h("select", { id: "as", class: "switcher", "aria-label": "Act as",
    onchange: (event) => switchUser(event.target.value) },
  state.people.map((p) => h("option", { value: p.key, selected: p.key === state.me.key }, `${p.real_name} — ${p.key}`)));
  bar.append(
    h("div", { class: "topbar-left" }, h("span", { class: "sandbox-badge", title: "No Slack workspace, no network: "
      + "the real bot against a Slack stand-in on this machine" }, "Offline sandbox")),
    h("div", { class: "topbar-center" }, h("span", { class: "clock-label" }, "Sandbox clock"),
      h("span", { id: "clock", class: "clock" })),
    h("label", { class: "topbar-right" }, h("span", { class: "switcher-label" }, "Acting as"), switcher,
      avatar(state.users[state.me.user_id], "small")));
  renderClock();
}

function unread(conv) {
  if (!conv || !conv.messages.length) return false;
  const latest = conv.messages[conv.messages.length - 1].ts;
  const key = `${ui.as}:${conv.id}`;
  const open = (!ui.where.app && ui.where.channel === conv.id) || (ui.where.app === "messages" && conv.is_im);
  if (open || ui.seen[key] === undefined) { ui.seen[key] = latest; return false; }
  return parseFloat(latest) > parseFloat(ui.seen[key]);
}

function renderSidebar() {
  const state = ui.state;
  const channels = state.conversations.filter((c) => !c.is_im && !c.is_mpim);
  const marks = channels.map((c) => unread(c));
  const dmUnread = unread(dm());
  if (!changed("sidebar", [state.team, channels.map((c) => c.id), marks, dmUnread, ui.where, state.me.key,
    state.observer_links])) return;
  const nav = clear($("sidebar"));
  nav.append(h("div", { class: "workspace" }, h("span", { class: "workspace-name" }, state.team.name),
    h("span", { class: "workspace-domain" }, `${state.team.domain}.slack.com (offline)`)));
  nav.append(h("div", { class: "sidebar-section" }, "Channels"));
  channels.forEach((c, index) => nav.append(h("button", {
    type: "button", class: ["sidebar-item", !ui.where.app && ui.where.channel === c.id && "is-active", marks[index] && "is-unread"],
    dataset: { channel: c.id }, onclick: () => openChannel(c.id),
  }, h("span", { class: "sidebar-hash" }, "#"), c.name)));
  nav.append(h("div", { class: "sidebar-section" }, "Apps"));
  nav.append(h("button", {
    type: "button", class: ["sidebar-item", ui.where.app && "is-active", dmUnread && "is-unread"], dataset: { app: "recount-bot" },
    onclick: () => openApp("home"),
  }, avatar(state.users[state.bot.user_id] || { name: state.bot.name, is_bot: true }, "tiny"), state.bot.name));
  if (state.me.key !== "official" && state.me.key !== "staff") nav.append(observerLinks(state.observer_links || []));
  nav.append(h("div", { class: "sidebar-people" }, h("div", { class: "sidebar-section" }, "People in this sandbox"),
    state.people.map((p) => h("div", { class: ["sidebar-person", p.key === state.me.key && "is-me"] },
      avatar(state.users[p.user_id], "tiny"), h("span", {}, `${p.real_name}`), h("span", { class: "person-key" }, p.key)))));
}

// Someone outside the office: the observers' pages the office shared (C.R.S. 1-13.5-1306(1)), opened in a tab of
// their own as a candidate or watcher opens the link, without Slack.
function observerLinks(links) {
  return h("div", { class: "sidebar-observe" }, h("div", { class: "sidebar-section" }, "Observers' pages"),
    links.length ? links.map((link) => h("a", { class: "sidebar-item sidebar-link", href: link.url, target: "_blank",
      rel: "noopener noreferrer" }, `\u{1F440} ${link.label}`))
      : h("p", { class: "sidebar-note" }, "None shared with you yet: the office shares one from a case card "
        + "(Share observers' link) and passes it on."));
}

function renderMain() {
  const main = $("main");
  if (ui.where.app) return renderApp(main);
  const conv = conversation(ui.where.channel);
  if (!conv) return;
  const fresh = changed("main-frame", ["channel", conv.id, ui.as]);
  if (fresh) {
    clear(main);
    ui.composer = new Composer({
      placeholder: `Message #${conv.name}`, send: (text) => send(text, conv.id),
      shortcut: (id) => act("shortcut", { callback_id: id, channel: conv.id }),
      commands: ui.state.commands, subcommands: ui.state.subcommands, shortcuts: ui.state.shortcuts,
      hint: h("span", {}, "Try ", fill("/recount check"), " or ", fill("/recount help"), ". ",
        h("kbd", {}, "Enter"), " sends, ", h("kbd", {}, "Shift"), "+", h("kbd", {}, "Enter"), " starts a new line."),
    });
    main.append(
      h("div", { class: "pane-header" }, h("h1", { class: "pane-title" }, `# ${conv.name}`),
        h("span", { class: "pane-subtitle" }, conv.topic || "Where the office works on recounts")),
      h("div", { id: "scroller", class: "pane-scroll" }),
      ui.composer.node);
    ui.keys["main-messages"] = null;
  }
  renderMessages($("scroller"), conv, channelIntro(conv));
}

function fill(text) {
  return h("button", { type: "button", class: "link-button code-fill", onclick: () => ui.composer.set(text) }, h("code", {}, text));
}

function channelIntro(conv) {
  return h("div", { class: "channel-intro" },
    h("h2", {}, `This is the very beginning of #${conv.name}`),
    h("p", {}, "The real recount-bot answers here, against a Slack stand-in on this machine, on the example "
      + "elections: the Regular Special District Election of 2027-05-04 (C.R.S. 1-13.5-1306), the latest; and, loaded "
      + "before it, a town's April election (C.R.S. 31-10-1207) and a coordinated November election (C.R.S. 1-10.5)."),
    h("p", { class: "hint" }, h("b", {}, "Start here: "), "type ", fill("/recount check"), " to check the election's survey of returns. "
      + "Switch people at the top right: Maya is the official, Theo staff; Riley is an elector outside the office, "
      + "who opens the observers' pages the office shares (left, under Observers' pages)."));
}

function renderMessages(scroller, conv, intro) {
  if (!changed("main-messages", [conv, ui.as, ui.state.users])) return;
  const atBottom = ui.stickToBottom || scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 60;
  const top = scroller.scrollTop;
  clear(scroller);
  if (intro) scroller.append(intro);
  scroller.append(renderMessageList(conv.messages, {
    tz: ui.state.me.tz, ctxFor: (m) => messageCtx(conv.id, m), onThread: (ts) => openThread(conv.id, ts),
    onDismiss: (m) => act("dismiss", { ts: m.ts }),
  }));
  scroller.scrollTop = atBottom ? scroller.scrollHeight : top;
  ui.stickToBottom = false;
}

function renderApp(main) {
  const tab = ui.where.app;
  const state = ui.state;
  if (changed("main-frame", ["app", tab, ui.as])) {
    clear(main);
    const tabs = ["home", "messages", "about"].map((name) => h("button", {
      type: "button", class: ["tab", tab === name && "is-active"], dataset: { tab: name },
      onclick: () => openApp(name),
    }, name[0].toUpperCase() + name.slice(1)));
    main.append(h("div", { class: "pane-header app-header" },
      avatar(state.users[state.bot.user_id] || { name: state.bot.name, is_bot: true }, "small"),
      h("h1", { class: "pane-title" }, state.bot.name), h("nav", { class: "tabs" }, tabs)));
    main.append(h("div", { id: "scroller", class: ["pane-scroll", tab === "home" && "home-surface"] }));
    ui.composer = null;
    if (tab === "messages") {
      ui.composer = new Composer({
        placeholder: `Message ${state.bot.name}`, send: (text) => send(text, "dm"),
        shortcut: (id) => act("shortcut", { callback_id: id, channel: "dm" }),
        commands: state.commands, subcommands: state.subcommands, shortcuts: state.shortcuts,
      });
      main.append(ui.composer.node);
    }
    ui.keys["main-messages"] = null;
    ui.keys.home = null;
  }
  const scroller = $("scroller");
  if (tab === "home") {
    if (!changed("home", [state.home, ui.as, state.users])) return;
    clear(scroller);
    const home = state.home;
    scroller.append(home ? h("div", { class: "home-view", dataset: { viewId: home.id } }, renderBlocks(home.blocks, {
      ...baseCtx(), action: (element, blockId, st, node) => viewAction(home, element, blockId, st, {}, node),
    })) : h("div", { class: "home-empty" }, "Loading the App Home\u2026"));
  } else if (tab === "messages") {
    const conv = dm() || { id: "dm", name: state.bot.name, messages: [], threads: {} };
    renderMessages(scroller, conv, conv.messages.length ? null : h("div", { class: "channel-intro" },
      h("h2", {}, state.bot.name), h("p", {}, "Direct messages with the app: its reminders, and what it tells only you. "
        + "Slash commands typed here reach the bot from this conversation.")));
  } else if (changed("about", [state.commands, state.shortcuts])) {
    clear(scroller);
    scroller.append(h("div", { class: "about" },
      h("h2", {}, "Slash commands"), state.commands.map((c) => h("div", { class: "about-item" },
        h("code", {}, `${c.command} ${c.usage_hint}`), h("p", {}, c.description))),
      h("h2", {}, "Shortcuts"), state.shortcuts.map((s) => h("div", { class: "about-item" },
        h("b", {}, s.name), h("p", {}, s.description))),
      h("h2", {}, "Subcommands"), state.subcommands.map((s) => h("div", { class: "about-item" },
        h("code", {}, s.usage), h("p", {}, s.summary)))));
  }
}

function renderThread() {
  const panel = $("thread");
  if (!ui.thread) {
    if (!panel.hidden) { clear(panel); panel.hidden = true; ui.keys.thread = null; document.body.classList.remove("with-thread"); }
    return;
  }
  const conv = conversation(ui.thread.channel);
  const parent = conv && conv.messages.find((m) => m.ts === ui.thread.ts);
  const replies = (conv && conv.threads[ui.thread.ts]) || [];
  if (!changed("thread", [ui.thread, parent, replies, ui.as])) return;
  panel.hidden = false;
  document.body.classList.add("with-thread");
  const previous = panel.querySelector(".thread-scroll");
  const atBottom = !previous || previous.scrollHeight - previous.scrollTop - previous.clientHeight < 60;
  const top = previous ? previous.scrollTop : 0;
  const draft = ui.threadComposer ? ui.threadComposer.input.value : "";
  clear(panel);
  const scroll = h("div", { class: "thread-scroll" });
  if (parent) {
    scroll.append(renderMessage(parent, { tz: ui.state.me.tz, ctxFor: (m) => messageCtx(conv.id, m), inThread: true,
      onThread: () => {}, onDismiss: (m) => act("dismiss", { ts: m.ts }) }));
    scroll.append(h("div", { class: "thread-divider" }, `${replies.length} ${replies.length === 1 ? "reply" : "replies"}`));
    scroll.append(renderMessageList(replies, { tz: ui.state.me.tz, ctxFor: (m) => messageCtx(conv.id, m), inThread: true,
      onThread: () => {}, onDismiss: (m) => act("dismiss", { ts: m.ts }) }));
  } else {
    scroll.append(h("p", { class: "home-empty" }, "This message is gone."));
  }
  ui.threadComposer = new Composer({
    placeholder: "Reply\u2026", send: (text) => send(text, conv.id, text.startsWith("/") ? undefined : ui.thread.ts),
    shortcut: (id) => act("shortcut", { callback_id: id, channel: conv.id }),
    commands: ui.state.commands, subcommands: ui.state.subcommands, shortcuts: ui.state.shortcuts,
  });
  ui.threadComposer.input.value = draft;
  panel.append(h("div", { class: "thread-header" }, h("div", {}, h("h2", {}, "Thread"),
    h("span", { class: "pane-subtitle" }, `# ${conv.name}`)),
  h("button", { type: "button", class: "thread-close", "aria-label": "Close thread", onclick: () => { ui.thread = null; render(); } }, "\u00D7")),
  scroll, ui.threadComposer.node);
  scroll.scrollTop = atBottom ? scroll.scrollHeight : top;
}

// ------------------------------------------------------------------ toasts
function toast(text) {
  const area = $("toasts");
  const node = h("div", { class: "toast", role: "status" }, text);
  area.append(node);
  setTimeout(() => node.remove(), 7000);
}

start().catch((error) => {
  document.body.append(h("div", { class: "fatal" }, `The sandbox page could not start: ${error.message}`));
});
