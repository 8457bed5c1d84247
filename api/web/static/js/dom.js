// DOM helpers: every text from the API goes in as a text node (never parsed as HTML).

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "className") node.setAttribute("class", value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style") Object.assign(node.style, value); // CSSOM: allowed by the CSP
    else if (key === "on") for (const [name, handler] of Object.entries(value)) node.addEventListener(name, handler);
    else if (key.startsWith("on")) throw new Error(`use {on: {...}} for ${key}`);
    else if (key in node && !(node instanceof SVGElement)) node[key] = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: el("li", {className: "x"}, "text", otherNode). */
export function el(tag, props = {}, ...children) {
  return fill(document.createElement(tag), props, children);
}

/** An SVG element. */
export function svg(tag, props = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), props, children);
}

export function $(id) {
  return document.getElementById(id);
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

export function show(node, visible = true) {
  node.hidden = !visible;
}

/** Shows an API problem (or any error) in the page's alert line. */
export function showProblem(error) {
  const line = $("problem");
  if (!line) return;
  if (!error) {
    line.hidden = true;
    line.textContent = "";
    return;
  }
  const body = error.body || {};
  const details = (body.errors || []).map((item) => `${item.pointer}: ${item.detail}`).join("; ");
  line.textContent = [body.title || error.message, body.detail, details].filter(Boolean).join(" — ");
  line.hidden = false;
}

/**
 * A phone's width, as the stylesheet's `max-width: 40rem`. Some boards are drawn differently there (a ring's
 * middle goes under it): the pages draw them again when the width crosses it (`phone.addEventListener("change")`).
 */
export const phone = matchMedia("(max-width: 40rem)");

export function money(amount) {
  if (typeof amount !== "number") return String(amount);
  return (amount < 0 ? "-$" : "$") + Math.abs(amount).toLocaleString("en-US");
}

export function words(identifier) {
  return String(identifier).replaceAll("_", " ");
}
