// Modals as Slack shows them: a stack (views.push adds one, Back pops it, the X closes them all), the
// form's state kept by the client while the person types, inputs kept across views.update when their
// block_id and action_id stay the same, errors shown under their field, and confirm dialogs.

import { h, clear } from "./dom.js";
import { renderBlocks } from "./blocks.js";
import { renderElement } from "./elements.js";
import { textObject, plainText } from "./mrkdwn.js";

const INITIAL = {
  value: "initial_value", selected_option: "initial_option", selected_options: "initial_options",
  selected_user: "initial_user", selected_users: "initial_users", selected_date: "initial_date",
  selected_time: "initial_time", selected_date_time: "initial_date_time",
  selected_conversation: "initial_conversation", selected_channel: "initial_channel",
};
const STATE_KEY = {
  static_select: "selected_option", external_select: "selected_option", radio_buttons: "selected_option",
  multi_static_select: "selected_options", checkboxes: "selected_options", users_select: "selected_user",
  multi_users_select: "selected_users", datepicker: "selected_date", timepicker: "selected_time",
  datetimepicker: "selected_date_time", conversations_select: "selected_conversation",
  channels_select: "selected_channel", file_input: "files",
};

export function actionIdOf(block) {
  return (block.element && block.element.action_id) || block.block_id;
}

function initialState(element) {
  const key = STATE_KEY[element.type] || "value";
  if (element.type === "file_input") return { type: element.type, files: [] };  // Slack has no initial files
  const initial = element[INITIAL[key]];
  return { type: element.type, [key]: initial === undefined ? null : initial };
}

function inputBlocks(view) {
  return (view.blocks || []).filter((block) => block.type === "input");
}

export class ModalLayer {
  // app: {perform(action, fields), viewAction(view, element, blockId, state, values, node), refocus()}
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.forms = new Map();
    this.shown = null;
    this.submitting = false;
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.top && !document.querySelector(".confirm-overlay")) {
        event.preventDefault();
        this.close(this.top, true);
      }
    });
  }

  // The sandbox restarted: its views are new ones; what was typed into the old ones is gone with them.
  forget() {
    this.forms.clear();
    this.shown = null;
  }

  render(stack, ctx, user) {
    this.user = user;
    this.top = stack.length ? stack[stack.length - 1] : null;
    if (!this.top) {
      if (!this.root.hidden) {
        clear(this.root);
        this.root.hidden = true;
        this.shown = null;
        this.app.refocus();
      }
      return;
    }
    const form = this.formFor(user, this.top);
    const key = [user, this.top.id, this.top.hash, stack.length, form.rev].join("|");
    if (key === this.shown) return;
    this.shown = key;
    this.draw(this.top, stack, form, ctx);
  }

  formFor(user, view) {
    const id = `${user}:${view.id}`;
    let form = this.forms.get(id);
    if (!form) {
      form = { hash: view.hash, values: {}, errors: {}, banner: null, rev: 0 };
      this.forms.set(id, form);
    } else if (form.hash !== view.hash) {
      const kept = {};
      for (const block of inputBlocks(view)) {
        const actionId = actionIdOf(block);
        const before = form.values[block.block_id];
        if (before && before[actionId] && before[actionId].type === block.element.type) {
          kept[block.block_id] = { [actionId]: before[actionId] };
        }
      }
      Object.assign(form, { hash: view.hash, values: kept, errors: {}, banner: null, rev: form.rev + 1 });
    }
    return form;
  }

  draw(view, stack, form, ctx) {
    const scroller = this.root.querySelector(".modal-body");
    const scrollTop = scroller && this.root.dataset.viewId === view.id ? scroller.scrollTop : 0;
    clear(this.root);
    this.root.hidden = false;
    this.root.dataset.viewId = view.id;
    const modalCtx = {
      ...ctx,
      input: (block) => this.inputBlock(block, view, form, ctx),
      action: (element, blockId, state, node) => this.app.viewAction(view, element, blockId, state, form.values, node),
    };
    const titleId = `modal-title-${view.id}`;
    const back = stack.length > 1
      ? h("button", { type: "button", class: "modal-back", "aria-label": "Back", onclick: () => this.close(view, false) }, "\u2039")
      : null;
    const submit = view.submit ? h("button", { type: "submit", class: "btn btn-primary btn-large modal-submit" },
      plainText(view.submit.text)) : null;
    const cancel = h("button", { type: "button", class: "btn btn-large modal-cancel", onclick: () => this.close(view, false) },
      plainText(view.close ? view.close.text : stack.length > 1 ? "Back" : "Cancel"));
    const dialog = h("form", {
      class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, novalidate: true, tabIndex: -1,
      dataset: { callbackId: view.callback_id || "", viewId: view.id },
    },
    h("div", { class: "modal-header" }, back,
      h("h2", { class: "modal-title", id: titleId }, plainText(view.title ? view.title.text : "")),
      h("button", { type: "button", class: "modal-close", "aria-label": "Close", onclick: () => this.close(view, true) }, "\u00D7")),
    form.banner ? h("div", { class: "modal-banner", role: "alert" }, form.banner) : null,
    h("div", { class: "modal-body" }, renderBlocks(view.blocks, modalCtx)),
    h("div", { class: "modal-footer" }, cancel, submit));
    dialog.addEventListener("submit", (event) => {
      event.preventDefault();
      if (submit) this.submit(view, form, submit);
    });
    this.root.append(h("div", { class: "modal-overlay" }, dialog));
    const body = dialog.querySelector(".modal-body");
    body.scrollTop = scrollTop;
    const firstError = dialog.querySelector(".input-block.has-error");
    if (firstError) {
      firstError.scrollIntoView({ block: "center" });
      const field = firstError.querySelector("input, select, textarea");
      if (field) field.focus();
    } else if (!scrollTop && !dialog.contains(document.activeElement)) {
      const field = dialog.querySelector(".modal-body input:not([type=radio]):not([type=checkbox]), .modal-body textarea");
      (field || dialog).focus({ preventScroll: true });
    }
  }

  inputBlock(block, view, form, ctx) {
    const element = block.element || {};
    const blockId = block.block_id;
    const actionId = actionIdOf(block);
    const values = form.values[blockId] || {};
    const state = values[actionId] || initialState(element);
    const error = form.errors[blockId];
    const fieldId = `field-${view.id}-${blockId}`.replace(/[^\w-]/g, "_");
    // A file input uploads what is chosen at once, as Slack's client does; the form then holds the file's id.
    const elementCtx = { ...ctx, upload: (name, data) => this.app.perform("upload", { name, data }) };
    const node = renderElement({ ...element, action_id: actionId }, elementCtx, {
      blockId, state, error, dispatch: Boolean(block.dispatch_action),
      onChange: (next) => { form.values[blockId] = { [actionId]: { type: element.type, ...next } }; },
      onAction: block.dispatch_action
        ? (next, source) => this.app.viewAction(view, { ...element, action_id: actionId }, blockId,
          { type: element.type, ...next }, form.values, source)
        : undefined,
    });
    const focusable = node.matches("input, select, textarea") ? node : node.querySelector("input, select, textarea");
    if (focusable) focusable.id = fieldId;
    return h("div", { class: ["block", "input-block", error && "has-error"], dataset: { blockId } },
      h("label", { class: "input-label", htmlFor: focusable ? fieldId : undefined },
        textObject(block.label, ctx), block.optional ? h("span", { class: "input-optional" }, " (optional)") : null),
      node,
      error ? h("div", { class: "input-error", role: "alert" }, error) : null,
      block.hint ? h("div", { class: "input-hint" }, textObject(block.hint, ctx)) : null);
  }

  async submit(view, form, button) {
    if (this.submitting) return;
    this.submitting = true;
    button.classList.add("is-loading");
    button.disabled = true;
    try {
      const result = await this.app.perform("submit", { view_id: view.id, values: form.values });
      if (result.action === "errors") {
        form.errors = result.errors || {};
        form.banner = result.message || null;
        form.rev += 1;
      } else if (result.message) {
        form.banner = result.message;
        form.rev += 1;
      } else {
        form.errors = {};
      }
      this.shown = null;  // redraw: errors, the next view, or nothing
      this.app.applyState(result.state);
    } catch (error) {
      this.app.toast(error.message);
    } finally {
      this.submitting = false;
      button.classList.remove("is-loading");
      button.disabled = false;
    }
  }

  async close(view, all) {
    try {
      const result = await this.app.perform("close", { view_id: view.id, all });
      this.app.applyState(result.state);
    } catch (error) {
      this.app.toast(error.message);
    }
  }
}

// A button's `confirm` object, as Slack's dialog asks it. Resolves true when confirmed.
export function confirmDialog(confirm, ctx) {
  return new Promise((resolve) => {
    const layer = h("div", { class: "confirm-overlay" });
    const done = (answer) => {
      layer.remove();
      document.removeEventListener("keydown", onKey, true);
      resolve(answer);
    };
    const onKey = (event) => {
      if (event.key === "Escape") { event.stopPropagation(); done(false); }
    };
    const yes = h("button", { type: "button", class: ["btn", "btn-large", confirm.style === "danger" ? "btn-danger" : "btn-primary", "confirm-yes"],
      onclick: () => done(true) }, plainText(confirm.confirm ? confirm.confirm.text : "Yes"));
    const no = h("button", { type: "button", class: "btn btn-large confirm-no", onclick: () => done(false) },
      plainText(confirm.deny ? confirm.deny.text : "Cancel"));
    layer.append(h("div", { class: "confirm", role: "alertdialog", "aria-modal": "true" },
      h("h3", { class: "confirm-title" }, plainText(confirm.title ? confirm.title.text : "Are you sure?")),
      h("div", { class: "confirm-text" }, textObject(confirm.text, ctx)),
      h("div", { class: "confirm-footer" }, no, yes)));
    document.addEventListener("keydown", onKey, true);
    document.body.append(layer);
    yes.focus();
  });
}
