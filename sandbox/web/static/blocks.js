// Block Kit layout blocks, as Slack's client lays them out: header, section (text, fields, accessory),
// context, divider, actions, image, input (modals and App Home), rich_text. A block this page cannot show is
// shown as "unsupported block: TYPE", never dropped.
//
// ctx: {users, me, tz, channelName(id), conversations, action(element, blockId, state, node), input(block)}

import { h, safeHref } from "./dom.js";
import { renderElement, unsupportedElement } from "./elements.js";
import { textObject, plainText } from "./mrkdwn.js";
import { emoji } from "./emoji.js";

export function renderBlocks(blocks, ctx) {
  const out = h("div", { class: "blocks" });
  for (const block of blocks || []) {
    const render = BLOCKS[block.type];
    const node = render ? render(block, ctx) : unsupportedBlock(block.type);
    if (block.block_id) node.dataset.blockId = block.block_id;
    out.append(node);
  }
  return out;
}

export function unsupportedBlock(type) {
  return h("div", { class: "block block-unsupported", title: "This sandbox cannot show it; Slack would." },
    `unsupported block: ${type || "?"}`);
}

function interactive(element, block, ctx) {
  return renderElement(element, ctx, {
    blockId: block.block_id,
    onAction: (state, node) => ctx.action && ctx.action(element, block.block_id, state, node),
  });
}

function header(block, ctx) {
  return h("div", { class: "block block-header", role: "heading", "aria-level": "3" }, textObject(block.text, ctx));
}

function section(block, ctx) {
  const body = h("div", { class: "section-body" });
  if (block.text) body.append(h("div", { class: "section-text" }, textObject(block.text, ctx)));
  if (block.fields && block.fields.length) {
    body.append(h("div", { class: "section-fields" },
      block.fields.map((field) => h("div", { class: "section-field" }, textObject(field, ctx)))));
  }
  const node = h("div", { class: "block block-section" }, body);
  if (block.accessory) {
    const accessory = block.accessory.type === "image"
      ? imageAccessory(block.accessory)
      : interactive(block.accessory, block, ctx);
    node.append(h("div", { class: "section-accessory" }, accessory));
  }
  return node;
}

function imageAccessory(element) {
  return h("span", { class: "image-placeholder image-accessory", title: element.image_url || "", role: "img",
    "aria-label": element.alt_text || "image" }, element.alt_text || "image");
}

function context(block, ctx) {
  return h("div", { class: "block block-context" }, (block.elements || []).map((element) => {
    if (element.type === "mrkdwn" || element.type === "plain_text") {
      return h("span", { class: "context-item" }, textObject(element, ctx));
    }
    if (element.type === "image") {
      return h("span", { class: "image-placeholder image-context", title: element.alt_text || "", role: "img",
        "aria-label": element.alt_text || "image" });
    }
    return unsupportedElement(element.type);
  }));
}

function divider() {
  return h("hr", { class: "block block-divider" });
}

function actions(block, ctx) {
  return h("div", { class: "block block-actions" },
    (block.elements || []).map((element) => h("span", { class: "action" }, interactive(element, block, ctx))));
}

function image(block, ctx) {
  // No network in the sandbox: the image is shown by its title and description.
  return h("figure", { class: "block block-image" },
    block.title ? h("figcaption", { class: "image-title" }, textObject(block.title, ctx)) : null,
    h("div", { class: "image-placeholder image-large", title: block.image_url || "", role: "img",
      "aria-label": block.alt_text || "image" }, `\u{1F5BC}\uFE0F ${block.alt_text || "image"}`));
}

function input(block, ctx) {
  return ctx.input ? ctx.input(block) : unsupportedBlock("input (outside a modal)");
}

// ------------------------------------------------------------------ rich_text (what people type)
function richText(block, ctx) {
  return h("div", { class: "block block-rich-text" }, (block.elements || []).map((part) => richPart(part, ctx)));
}

function richPart(part, ctx) {
  switch (part.type) {
    case "rich_text_section":
      return h("div", { class: "rich-section" }, (part.elements || []).map((e) => richInline(e, ctx)));
    case "rich_text_preformatted":
      return h("pre", { class: "md-pre" }, (part.elements || []).map((e) => richInline(e, ctx)));
    case "rich_text_quote":
      return h("blockquote", { class: "md-quote" }, (part.elements || []).map((e) => richInline(e, ctx)));
    case "rich_text_list": {
      const list = h(part.style === "ordered" ? "ol" : "ul", { class: `rich-list rich-indent-${part.indent || 0}` },
        (part.elements || []).map((item) => h("li", {}, (item.elements || []).map((e) => richInline(e, ctx)))));
      return list;
    }
    default:
      return unsupportedElement(part.type);
  }
}

function richInline(element, ctx) {
  let node;
  const style = element.style || {};
  switch (element.type) {
    case "text":
      node = h("span", {}, plainLines(element.text || ""));
      break;
    case "link": {
      const href = safeHref(element.url || "");
      node = href ? h("a", { class: "md-link", href, target: "_blank", rel: "noopener noreferrer" },
        element.text || element.url) : h("span", {}, element.text || element.url || "");
      break;
    }
    case "user": {
      const user = (ctx.users || {})[element.user_id];
      node = h("span", { class: "mention" }, "@" + (user ? user.name : element.user_id));
      break;
    }
    case "channel":
      node = h("span", { class: "mention" }, "#" + ((ctx.channelName && ctx.channelName(element.channel_id)) || element.channel_id));
      break;
    case "broadcast":
      node = h("span", { class: "mention mention-broadcast" }, "@" + element.range);
      break;
    case "emoji":
      node = h("span", { class: "emoji", title: `:${element.name}:` }, emoji(element.name) || `:${element.name}:`);
      break;
    default:
      return unsupportedElement(element.type);
  }
  if (style.code) node = h("code", { class: "md-code" }, node);
  if (style.bold) node = h("b", {}, node);
  if (style.italic) node = h("i", {}, node);
  if (style.strike) node = h("s", {}, node);
  return node;
}

function plainLines(text) {
  return plainText(text, false);
}

const BLOCKS = {
  header, section, context, divider, actions, image, input, rich_text: richText,
};
