// Form fields built from a ruleset's options schema (JSON Schema), and the options they give.
import { clear, el, words } from "./dom.js";

function kinds(schema) {
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

/** Fills `fieldset` with one field per option; objects and arrays take JSON. */
export function drawOptions(fieldset, optionsSchema) {
  const legend = fieldset.querySelector("legend");
  clear(fieldset);
  if (legend) fieldset.append(legend);
  // The options only JSON can say (boards, decks, charts): folded away, for whoever edits house data.
  const folded = el("details", { className: "json-options developer" }, el("summary", {}, "Data options (JSON)"));
  for (const [name, schema] of Object.entries(optionsSchema.properties || {})) {
    const type = kinds(schema);
    const hint = schema.description || "";
    const defaultText = schema.default === null || schema.default === undefined ? "" : String(schema.default);
    let input;
    if (schema.enum) {
      input = el("select", { name }, el("option", { value: "" }, "(default)"),
        schema.enum.filter((value) => value !== null).map((value) => el("option", { value: JSON.stringify(value) }, String(value))));
      input.dataset.kind = "json";
    } else if (type.has("boolean")) {
      input = el("select", { name }, el("option", { value: "" }, `(default${defaultText ? `: ${defaultText}` : ""})`),
        el("option", { value: "true" }, "yes"), el("option", { value: "false" }, "no"));
      input.dataset.kind = "json";
    } else if (type.has("integer") || type.has("number")) {
      input = el("input", { type: "number", name, placeholder: defaultText || "default",
        min: schema.minimum, max: schema.maximum, step: type.has("integer") ? 1 : "any" });
      input.dataset.kind = "number";
    } else if (type.has("string")) {
      input = el("input", { type: "text", name, placeholder: defaultText || "default", maxLength: schema.maxLength || 200 });
      input.dataset.kind = "string";
    } else {
      input = el("textarea", { name, rows: 2, placeholder: "default (JSON to override)" });
      input.dataset.kind = "json";
    }
    input.classList.add("option");
    const field = el("label", { className: "option-field" }, el("span", {}, words(name)), input,
      hint ? el("small", { className: "muted" }, hint) : null);
    (input.tagName === "TEXTAREA" ? folded : fieldset).append(field);
  }
  if (folded.children.length > 1) fieldset.append(folded);
}

/** The options the user set (fields left empty keep the ruleset's default). Throws on bad JSON. */
export function readOptions(fieldset) {
  const options = {};
  for (const input of fieldset.querySelectorAll(".option")) {
    const text = input.value.trim();
    if (!text) continue;
    if (input.dataset.kind === "number") options[input.name] = Number(text);
    else if (input.dataset.kind === "string") options[input.name] = text;
    else {
      try {
        options[input.name] = JSON.parse(text);
      } catch {
        throw new Error(`${words(input.name)}: not valid JSON`);
      }
    }
  }
  return options;
}
