// Block Kit's interactive elements: buttons, selects, pickers, text and number inputs, checkboxes, radio
// buttons, overflow menus, file inputs. Each renders from its JSON and reports its new state in Slack's shape
// ({selected_option: …}, {selected_date: …}, {value: …}); a date-and-time picker reports {local: "…T…"},
// which the sandbox turns into epoch seconds in the person's time zone, as Slack's client does. A file input
// uploads each file the moment it is chosen (ctx.upload, as Slack's client does) and reports {files: [{id, …}]}.
//
// `where`: {blockId, state, onChange(state), onAction(state), error}. onChange keeps the state (a modal's
// form); onAction tells the app now (actions blocks, accessories, dispatch_action inputs).

import { h, clear, localInput, safeHref } from "./dom.js";
import { textObject, plainText } from "./mrkdwn.js";

export const SELECT_TYPES = ["static_select", "multi_static_select", "users_select", "multi_users_select",
  "conversations_select", "channels_select", "external_select"];

export function renderElement(element, ctx, where = {}) {
  const render = RENDERERS[element.type];
  if (!render) return unsupportedElement(element.type);
  return render(element, ctx, where);
}

export function unsupportedElement(type) {
  return h("span", { class: "unsupported", title: "This sandbox cannot show it; Slack would." },
    `unsupported element: ${type || "?"}`);
}

function options(element) {
  const found = [...(element.options || [])];
  for (const group of element.option_groups || []) found.push(...(group.options || []));
  return found;
}

function optionText(option) {
  return option && option.text ? option.text.text || "" : "";
}

function placeholderOf(element, fallback) {
  return element.placeholder ? element.placeholder.text : fallback;
}

// ------------------------------------------------------------------ buttons
function button(element, ctx, where) {
  const node = h("button", {
    type: "button", class: ["btn", element.style && `btn-${element.style}`],
    dataset: { actionId: element.action_id || "", blockId: where.blockId || "" },
    title: element.accessibility_label || undefined,
  }, textObject(element.text, ctx));
  node.addEventListener("click", () => {
    const href = element.url ? safeHref(element.url) : null;
    if (href) window.open(href, "_blank", "noopener");
    if (where.onAction) where.onAction({ type: "button" }, node);
  });
  return node;
}

// ------------------------------------------------------------------ selects
function nativeSelect(element, ctx, where, choices, current, multiple) {
  const select = h("select", {
    class: ["select", where.error && "has-error"], multiple,
    dataset: { actionId: element.action_id || "", blockId: where.blockId || "" },
    "aria-label": placeholderOf(element, "Select an item"),
  });
  if (!multiple) select.append(h("option", { value: "", disabled: true }, placeholderOf(element, "Select an item")));
  const add = (parent, choice) => parent.append(h("option", { value: choice.value }, choice.label));
  if (element.option_groups && choices.groups) {
    for (const group of choices.groups) {
      const node = h("optgroup", { label: group.label });
      group.items.forEach((choice) => add(node, choice));
      select.append(node);
    }
  } else {
    choices.items.forEach((choice) => add(select, choice));
  }
  const chosen = new Set([].concat(current || []));
  for (const option of select.options) option.selected = chosen.has(option.value);
  if (!multiple && !chosen.size) select.selectedIndex = 0;
  return select;
}

function staticSelect(element, ctx, where, multiple = false) {
  const all = options(element);
  if (!all.length && element.type === "external_select") return unsupportedElement(element.type);
  const toChoice = (o) => ({ value: o.value, label: optionText(o) });
  const choices = { items: all.map(toChoice) };
  if (element.option_groups) {
    choices.groups = element.option_groups.map((g) => ({ label: g.label ? g.label.text : "", items: (g.options || []).map(toChoice) }));
  }
  const state = where.state || {};
  const current = multiple ? (state.selected_options || []).map((o) => o.value)
    : state.selected_option ? state.selected_option.value : null;
  const select = nativeSelect(element, ctx, where, choices, current, multiple);
  select.addEventListener("change", () => {
    const picked = all.filter((o) => [...select.selectedOptions].some((s) => s.value === o.value));
    const next = multiple ? { selected_options: picked } : { selected_option: picked[0] || null };
    report(where, next, select);
  });
  return select;
}

function usersSelect(element, ctx, where, multiple = false) {
  const people = Object.entries(ctx.users || {})
    .filter(([, user]) => !user.is_bot)
    .map(([id, user]) => ({ value: id, label: `${user.real_name} (@${user.name})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const state = where.state || {};
  const current = multiple ? state.selected_users || [] : state.selected_user;
  const select = nativeSelect(element, ctx, where, { items: people }, current, multiple);
  select.addEventListener("change", () => {
    const picked = [...select.selectedOptions].map((o) => o.value).filter(Boolean);
    report(where, multiple ? { selected_users: picked } : { selected_user: picked[0] || null }, select);
  });
  return select;
}

function conversationsSelect(element, ctx, where) {
  const key = element.type === "channels_select" ? "selected_channel" : "selected_conversation";
  const items = (ctx.conversations || []).filter((c) => !c.is_im || element.type !== "channels_select")
    .map((c) => ({ value: c.id, label: c.is_im ? "Direct message" : `#${c.name}` }));
  const select = nativeSelect(element, ctx, where, { items }, (where.state || {})[key], false);
  select.addEventListener("change", () => report(where, { [key]: select.value || null }, select));
  return select;
}

function overflow(element, ctx, where) {
  const all = options(element);
  const wrap = h("span", { class: "overflow" });
  const menu = h("div", { class: "overflow-menu", hidden: true, role: "menu" });
  const toggle = h("button", { type: "button", class: "btn btn-overflow", "aria-label": "More actions",
    dataset: { actionId: element.action_id || "", blockId: where.blockId || "" } }, "\u22EE");
  toggle.addEventListener("click", () => { menu.hidden = !menu.hidden; });
  for (const option of all) {
    const item = h("button", { type: "button", class: "overflow-item", role: "menuitem" }, textObject(option.text, ctx));
    item.addEventListener("click", () => {
      menu.hidden = true;
      const href = option.url ? safeHref(option.url) : null;
      if (href) window.open(href, "_blank", "noopener");
      report(where, { selected_option: option }, toggle);
    });
    menu.append(item);
  }
  wrap.append(toggle, menu);
  return wrap;
}

// ------------------------------------------------------------------ pickers
function datepicker(element, ctx, where) {
  const state = where.state || {};
  const input = h("input", { type: "date", class: ["input", "input-date", where.error && "has-error"],
    value: state.selected_date || "", dataset: { actionId: element.action_id || "", blockId: where.blockId || "" },
    "aria-label": placeholderOf(element, "Select a date") });
  input.addEventListener("change", () => report(where, { selected_date: input.value || null }, input));
  return input;
}

function timepicker(element, ctx, where) {
  const state = where.state || {};
  const input = h("input", { type: "time", class: ["input", "input-time", where.error && "has-error"],
    value: state.selected_time || "", dataset: { actionId: element.action_id || "", blockId: where.blockId || "" },
    "aria-label": placeholderOf(element, "Select a time") });
  input.addEventListener("change", () => report(where, { selected_time: input.value || null }, input));
  return input;
}

function datetimepicker(element, ctx, where) {
  const state = where.state || {};
  let local = state.local;
  if (local === undefined && state.selected_date_time) local = localInput(state.selected_date_time, ctx.tz);
  const [dayPart, timePart] = (local || "T").split("T");
  const attrs = { actionId: element.action_id || "", blockId: where.blockId || "" };
  const day = h("input", { type: "date", class: ["input", "input-date", where.error && "has-error"], value: dayPart,
    dataset: { ...attrs, part: "date" }, "aria-label": "Date" });
  const time = h("input", { type: "time", class: ["input", "input-time", where.error && "has-error"], value: timePart,
    dataset: { ...attrs, part: "time" }, "aria-label": "Time" });
  const changed = () => report(where, { local: day.value && time.value ? `${day.value}T${time.value}` : "" }, day);
  day.addEventListener("change", changed);
  time.addEventListener("change", changed);
  return h("span", { class: "datetime" }, day, time,
    h("span", { class: "datetime-zone" }, (ctx.tz || "").replace("_", " ")));
}

// ------------------------------------------------------------------ text
function textInput(element, ctx, where) {
  const state = where.state || {};
  const kinds = { email_text_input: "email", url_text_input: "url", number_input: "text" };
  const common = {
    class: ["input", where.error && "has-error"], placeholder: placeholderOf(element, ""),
    dataset: { actionId: element.action_id || "", blockId: where.blockId || "" },
    maxLength: element.max_length || undefined,
  };
  const input = element.multiline
    ? h("textarea", { ...common, rows: 4 })
    : h("input", { ...common, type: kinds[element.type] || "text",
      inputMode: element.type === "number_input" ? (element.is_decimal_allowed ? "decimal" : "numeric") : undefined });
  input.value = state.value === null || state.value === undefined ? "" : String(state.value);
  input.addEventListener("input", () => {
    if (where.onChange) where.onChange({ value: input.value });
    const on = ((element.dispatch_action_config || {}).trigger_actions_on || []);
    if (where.dispatch && on.includes("on_character_entered")) {
      clearTimeout(input.dispatchTimer);
      input.dispatchTimer = setTimeout(() => where.onAction({ value: input.value }, input), 400);
    }
  });
  input.addEventListener("keydown", (event) => {
    const on = ((element.dispatch_action_config || {}).trigger_actions_on || ["on_enter_pressed"]);
    if (event.key === "Enter" && !element.multiline && where.dispatch && on.includes("on_enter_pressed")) {
      event.preventDefault();
      where.onAction({ value: input.value }, input);
    }
  });
  return input;
}

// ------------------------------------------------------------------ choices
function choiceList(element, ctx, where, multiple) {
  const state = where.state || {};
  const chosen = new Set(multiple ? (state.selected_options || []).map((o) => o.value)
    : [state.selected_option && state.selected_option.value]);
  const name = `${where.blockId}-${element.action_id}-${Math.random().toString(36).slice(2)}`;
  const list = h("div", { class: ["choices", where.error && "has-error"], role: multiple ? "group" : "radiogroup",
    dataset: { actionId: element.action_id || "", blockId: where.blockId || "" } });
  const all = options(element);
  const boxes = [];
  for (const option of all) {
    const box = h("input", { type: multiple ? "checkbox" : "radio", name, value: option.value,
      checked: chosen.has(option.value) });
    boxes.push(box);
    const label = h("label", { class: "choice" }, box,
      h("span", { class: "choice-text" }, h("span", { class: "choice-label" }, textObject(option.text, ctx)),
        option.description ? h("span", { class: "choice-description" }, textObject(option.description, ctx)) : null));
    box.addEventListener("change", () => {
      const picked = all.filter((o, i) => boxes[i].checked);
      report(where, multiple ? { selected_options: picked } : { selected_option: picked[0] || null }, list);
    });
    list.append(label);
  }
  return list;
}

// ------------------------------------------------------------------ files
function sizeOf(bytes) {
  if (bytes < 10240) return `${bytes.toLocaleString("en-US")} bytes`;
  if (bytes < 10485760) return `${Math.round(bytes / 1024).toLocaleString("en-US")} KB`;
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

function base64Of(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.addEventListener("load", () => resolve(String(reader.result).replace(/^data:[^,]*,/, "")));
    reader.addEventListener("error", () => reject(reader.error || new Error("the file could not be read")));
    reader.readAsDataURL(file);
  });
}

function fileInput(element, ctx, where) {
  const most = element.max_files || 10;
  let files = [...((where.state || {}).files || [])];
  const kinds = (element.filetypes || []).map((t) => String(t).toLowerCase());
  const input = h("input", {
    type: "file", class: ["input", "input-file", where.error && "has-error"], multiple: most > 1,
    accept: kinds.length ? kinds.map((t) => `.${t}`).join(",") : undefined,
    dataset: { actionId: element.action_id || "", blockId: where.blockId || "" }, "aria-label": "Choose a file",
  });
  const list = h("ul", { class: "file-list" });
  const status = h("div", { class: "file-status", role: "status" });
  const show = () => {
    clear(list);
    for (const file of files) {
      const remove = h("button", { type: "button", class: "file-remove", "aria-label": `Remove ${file.name}` }, "\u00D7");
      remove.addEventListener("click", () => { files = files.filter((f) => f.id !== file.id); changed(); });
      list.append(h("li", { class: "file-chip", dataset: { fileId: file.id } },
        h("span", { class: "file-name" }, file.name), h("span", { class: "file-size" }, sizeOf(file.size || 0)), remove));
    }
  };
  const changed = () => {
    show();
    if (where.onChange) where.onChange({ files: files.map((f) => ({ ...f })) });
  };
  input.addEventListener("change", async () => {
    const picked = [...input.files];
    input.value = "";
    if (!picked.length) return;
    const wrong = picked.find((f) => kinds.length && !kinds.includes(f.name.split(".").pop().toLowerCase()));
    if (wrong) { status.textContent = `${wrong.name} is not a file this field takes (${kinds.join(", ")}).`; return; }
    if (!ctx.upload) { status.textContent = "Files can be attached only in a modal."; return; }
    input.disabled = true;
    status.textContent = `Uploading ${picked.map((f) => f.name).join(", ")}…`;
    try {
      const uploaded = [];
      for (const file of picked.slice(0, most)) {
        const result = await ctx.upload(file.name, await base64Of(file));
        uploaded.push(result.file);
      }
      files = most === 1 ? uploaded.slice(0, 1) : files.concat(uploaded).slice(0, most);
      status.textContent = "";
      changed();
    } catch (error) {
      status.textContent = error.message;
    } finally {
      input.disabled = false;
    }
  });
  show();
  return h("div", { class: "file-input" }, input, list, status);
}

function image(element) {
  // The sandbox has no network: an image is shown by its description, as a placeholder of its size.
  return h("span", { class: "image-placeholder image-small", title: element.image_url || "", role: "img",
    "aria-label": element.alt_text || "image" }, "\u{1F5BC}\uFE0F");
}

function report(where, state, node) {
  if (where.onChange) where.onChange(state);
  if (where.onAction) where.onAction(state, node);
}

const RENDERERS = {
  button,
  static_select: (e, c, w) => staticSelect(e, c, w, false),
  external_select: (e, c, w) => staticSelect(e, c, w, false),
  multi_static_select: (e, c, w) => staticSelect(e, c, w, true),
  users_select: (e, c, w) => usersSelect(e, c, w, false),
  multi_users_select: (e, c, w) => usersSelect(e, c, w, true),
  conversations_select: conversationsSelect,
  channels_select: conversationsSelect,
  overflow,
  datepicker,
  timepicker,
  datetimepicker,
  plain_text_input: textInput,
  number_input: textInput,
  email_text_input: textInput,
  url_text_input: textInput,
  checkboxes: (e, c, w) => choiceList(e, c, w, true),
  radio_buttons: (e, c, w) => choiceList(e, c, w, false),
  file_input: fileInput,
  image,
  mrkdwn: (e, c) => h("span", { class: "context-text" }, textObject(e, c)),
  plain_text: (e) => h("span", { class: "context-text" }, plainText(e.text || "", e.emoji !== false)),
};
