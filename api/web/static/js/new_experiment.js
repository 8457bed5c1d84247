// The experiment form: POST /v1/experiments with the app's secret key, then the experiment's page.
import { get } from "./api.js";
import { mountCreateForm, numberOrNull } from "./create_form.js";
import { $, clear, el, showProblem, words } from "./dom.js";
import { drawOptions, readOptions } from "./options.js";

/** A typed value: a number or JSON where it reads as one, else the text. */
function value(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function chooseRuleset(ruleset) {
  const details = await get(`/v1/rulesets/${encodeURIComponent(ruleset.id)}`);
  drawOptions($("exp-options"), details.options_schema);
  const sweep = clear($("exp-sweep-option"));
  for (const name of Object.keys(details.options_schema.properties || {})) {
    sweep.append(el("option", { value: name }, words(name)));
  }
}

/** What the base is compared with: a sweep of one option, or named variants. */
function comparison() {
  if ($("exp-compare-sweep").checked) {
    const values = $("exp-sweep-values").value.split(",").map((text) => text.trim()).filter(Boolean).map(value);
    return values.length ? { sweep: { [$("exp-sweep-option").value]: values } } : {};
  }
  const text = $("exp-variants").value.trim();
  if (!text) return {};
  try {
    return { variants: JSON.parse(text) };
  } catch {
    throw new Error("Variants: not valid JSON");
  }
}

function build(ruleset) {
  const body = {
    ruleset: ruleset.id, options: readOptions($("exp-options")),
    bots: $("exp-bots").value.split(",").map((bot) => bot.trim()).filter(Boolean), ...comparison(),
  };
  const players = numberOrNull("exp-players");
  if (players !== null) body.players = players;
  if ($("exp-length-games").checked) body.games = Number($("exp-games").value);
  else body.stop = { win_rate_within: Number($("exp-within").value), max_games: Number($("exp-max-games").value) };
  const seed = numberOrNull("exp-seed");
  if (seed !== null) body.seed = seed;
  return body;
}

mountCreateForm({
  form: "exp-form", select: "exp-ruleset", chooseRuleset, build, path: "/v1/experiments",
  pageOf: (made) => `/experiments/${encodeURIComponent(made.id)}`,
}).catch(showProblem);
