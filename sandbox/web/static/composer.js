// The message composer: Enter sends, Shift+Enter starts a new line; "/" suggests the app's slash commands
// (from its manifest) and, after "/recount ", its subcommands; "+" opens the global shortcuts.

import { h, clear } from "./dom.js";

export class Composer {
  // opts: {placeholder, send(text), shortcut(callback_id), commands, subcommands, shortcuts, hint}
  constructor(opts) {
    this.opts = opts;
    this.items = [];
    this.selected = 0;
    this.input = h("textarea", { class: "composer-input", rows: 1, placeholder: opts.placeholder,
      "aria-label": opts.placeholder, spellcheck: false });
    this.suggestions = h("div", { class: "suggestions", hidden: true, role: "listbox" });
    this.menu = h("div", { class: "shortcut-menu", hidden: true, role: "menu" });
    const plus = h("button", { type: "button", class: "composer-plus", title: "Shortcuts", "aria-label": "Shortcuts",
      onclick: () => this.toggleMenu() }, "+");
    const send = h("button", { type: "button", class: "composer-send", title: "Send now", "aria-label": "Send now",
      onclick: () => this.send() }, "\u27A4");
    this.node = h("div", { class: "composer-wrap" }, this.suggestions, this.menu,
      h("div", { class: "composer" }, plus, this.input, send),
      opts.hint ? h("div", { class: "composer-hint" }, opts.hint) : null);
    this.input.addEventListener("input", () => this.changed());
    this.input.addEventListener("keydown", (event) => this.key(event));
    this.input.addEventListener("blur", () => setTimeout(() => { this.suggestions.hidden = true; }, 150));
  }

  focus() {
    this.input.focus();
  }

  set(text) {
    this.input.value = text;
    this.changed();
    this.input.focus();
  }

  changed() {
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight, 200)}px`;
    this.suggest();
  }

  suggest() {
    const text = this.input.value;
    const { commands = [], subcommands = [] } = this.opts;
    let items = [];
    const typingCommand = text.match(/^(\/\S*)$/);
    const typingSub = text.match(/^(\/\S+)\s+(\S*)$/);
    if (typingCommand) {
      items = commands.filter((c) => c.command.startsWith(typingCommand[1])).map((c) => ({
        fill: `${c.command} `, title: c.command, hint: c.usage_hint, detail: c.description, exact: false,
      }));
    } else if (typingSub && commands.some((c) => c.command === typingSub[1])) {
      items = subcommands.filter((s) => s.name.startsWith(typingSub[2].toLowerCase())).map((s) => ({
        fill: `${typingSub[1]} ${s.name} `, title: s.usage, detail: s.summary, exact: s.name === typingSub[2],
      }));
    }
    this.items = items;
    this.selected = 0;
    clear(this.suggestions);
    this.suggestions.hidden = !items.length;
    if (!items.length) return;
    this.suggestions.append(h("div", { class: "suggestions-title" }, typingCommand ? "Commands" : "recount-bot"));
    items.forEach((item, index) => {
      this.suggestions.append(h("div", {
        class: ["suggestion", index === this.selected && "is-selected"], role: "option",
        onmousedown: (event) => { event.preventDefault(); this.choose(index); },
      }, h("span", { class: "suggestion-title" }, item.title),
      item.hint ? h("span", { class: "suggestion-hint" }, item.hint) : null,
      item.detail ? h("span", { class: "suggestion-detail" }, item.detail) : null));
    });
  }

  highlight(delta) {
    this.selected = (this.selected + delta + this.items.length) % this.items.length;
    [...this.suggestions.querySelectorAll(".suggestion")].forEach((node, index) => {
      node.classList.toggle("is-selected", index === this.selected);
    });
  }

  choose(index) {
    const item = this.items[index];
    if (item) this.set(item.fill);
  }

  key(event) {
    const open = !this.suggestions.hidden && this.items.length;
    if (open && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault();
      this.highlight(event.key === "ArrowDown" ? 1 : -1);
    } else if (open && event.key === "Tab") {
      event.preventDefault();
      this.choose(this.selected);
    } else if (open && event.key === "Escape") {
      this.suggestions.hidden = true;
    } else if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      // A suggestion is taken with Enter only while the word is unfinished; a finished command is sent.
      const item = open ? this.items[this.selected] : null;
      if (item && !item.exact && !this.input.value.endsWith(" ") && item.fill.trim() !== this.input.value.trim()) {
        this.choose(this.selected);
      } else {
        this.send();
      }
    }
  }

  send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.input.value = "";
    this.changed();
    this.opts.send(text);
  }

  toggleMenu() {
    if (!this.menu.hidden) {
      this.menu.hidden = true;
      return;
    }
    clear(this.menu);
    this.menu.append(h("div", { class: "suggestions-title" }, "Shortcuts"));
    for (const shortcut of this.opts.shortcuts || []) {
      this.menu.append(h("button", { type: "button", class: "shortcut-item", role: "menuitem",
        onclick: () => { this.menu.hidden = true; this.opts.shortcut(shortcut.callback_id); } },
      h("span", { class: "shortcut-name" }, shortcut.name), h("span", { class: "shortcut-app" }, "recount-bot"),
      shortcut.description ? h("span", { class: "suggestion-detail" }, shortcut.description) : null));
    }
    if (!(this.opts.shortcuts || []).length) this.menu.append(h("div", { class: "suggestion-detail" }, "No shortcuts."));
    this.menu.hidden = false;
  }
}
