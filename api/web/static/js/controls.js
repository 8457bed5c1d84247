// The viewer's pending decisions as controls offering exactly the legal actions.
import { clear, el } from "./dom.js";
import { actionLabel, decisionTitle, rangedLabels } from "./words.js";

function fixedPart(action, ranged) {
  return Object.fromEntries(Object.entries(action).filter(([key]) => !ranged.includes(key)));
}

/** A number input per ranged parameter, bounded by the decision's range, and one button. */
function rangedControl(type, bounds, fixed, send, ctx) {
  const words = rangedLabels(type, bounds, ctx);
  const inputs = Object.entries(bounds).map(([name, [low, high]]) => el("input", {
    type: "number", min: low, max: high, step: 1, value: low, required: true, name, className: "amount",
    dataset: { param: name },
  }));
  const labels = inputs.map((input) => el("label", {}, `${words.inputs[input.name]} `, input));
  const form = el("form", { className: "ranged", dataset: { type } }, labels,
    el("button", { type: "submit", className: "action", dataset: { type } }, words.button));
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    if (!form.reportValidity()) return;
    const action = { ...fixed };
    for (const input of inputs) action[input.name] = Number(input.value);
    send(action);
  });
  return form;
}

/** Draws `decisions` (from GET /decisions) into `container`; `send(action, decision)` is called on a choice. */
export function drawDecisions(container, decisions, ctx, send) {
  clear(container);
  controlsBusy(container, false); // fresh controls answer a fresh read: never drawn greyed

  if (!decisions.length) {
    container.append(el("p", { className: "muted idle" }, "Nothing for you to decide now."));
    return;
  }
  for (const decision of decisions) {
    const ranges = decision.ranges || {};
    const box = el("div", { className: "decision", dataset: { kind: decision.kind } },
      el("h3", {}, decisionTitle(decision.kind, ctx)),
      // A secret choice has no published default: a timed-out seat gets one of its options at random.
      el("p", { className: "muted" }, decision.default
        ? `If time runs out: ${actionLabel(decision.default, ctx)}.`
        : "If time runs out: one of these, drawn at random."));
    const seenRanged = new Set();
    const buttons = el("div", { className: "choices" });
    for (const option of decision.options) {
      const bounds = ranges[option.type];
      if (bounds) {
        const fixed = fixedPart(option, Object.keys(bounds));
        const key = JSON.stringify(fixed);
        if (seenRanged.has(key)) continue;
        seenRanged.add(key);
        box.append(rangedControl(option.type, bounds, fixed, (action) => send(action, decision), ctx));
        continue;
      }
      buttons.append(el("button", {
        type: "button", className: "action", dataset: { type: option.type, action: JSON.stringify(option) },
        on: { click: () => send(option, decision) },
      }, actionLabel(option, ctx)));
    }
    box.append(buttons);
    container.append(box);
  }
}

export function controlsBusy(container, busy) {
  for (const control of container.querySelectorAll("button, input")) control.disabled = busy;
  container.classList.toggle("busy", busy);
  container.dataset.busy = String(busy);
}
