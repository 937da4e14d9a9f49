// Tiny DOM helpers. Text always goes in through textContent (never innerHTML), so whatever
// a user typed, a player name or a comment, is shown as text and never parsed as markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.setAttribute("class", value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: el("li", {class: "x", text: "hi"}, child, …). */
export function el(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as el(). */
export function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace a node's children. */
export function replaceChildren(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

/** Make `container` show `drawn` (a node built afresh, not in the document) by changing only the nodes of what it shows
 *  that differ from it: a board drawn again at every move then costs the browser the style, layout and paint of what
 *  the move changed, not of the whole board. Nodes are matched by position. Only for markup with no listeners or
 *  state of its own (the boards): a kept node keeps its old listeners, and form fields their old values. */
export function redraw(container, drawn) {
  const holder = document.createDocumentFragment();
  holder.append(drawn);
  morphChildren(container, holder);
}

function morphChildren(live, fresh) {
  const wanted = [...fresh.childNodes];
  wanted.forEach((want, index) => {
    const have = live.childNodes[index];
    if (!have) live.append(want);
    else morphNode(have, want);
  });
  while (live.childNodes.length > wanted.length) live.lastChild.remove();
}

function morphNode(have, want) {
  const alike = have.nodeType === want.nodeType && have.nodeName === want.nodeName && have.namespaceURI === want.namespaceURI;
  if (!alike || (have.nodeType !== Node.ELEMENT_NODE && have.nodeType !== Node.TEXT_NODE)) {
    have.replaceWith(want);
  } else if (have.nodeType === Node.TEXT_NODE) {
    if (have.data !== want.data) have.data = want.data;
  } else if (!have.isEqualNode(want)) {
    morphAttributes(have, want);
    morphChildren(have, want);
  }
}

function morphAttributes(have, want) {
  for (const { name } of [...have.attributes]) if (!want.hasAttribute(name)) have.removeAttribute(name);
  for (const { name, value } of want.attributes) if (have.getAttribute(name) !== value) have.setAttribute(name, value);
}

/** The JSON a page embedded in <script type="application/json" id=…>. */
export function pageData(id = "page-data") {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : {};
}

/** "Anna, Ben and Cleo". */
export function joinNames(names) {
  if (names.length < 2) return names.join("");
  return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}
