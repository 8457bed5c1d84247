// The tournament form: POST /v1/tournaments with the app's secret key, then the tournament's page.
import { get } from "./api.js";
import { mountCreateForm, numberOrNull } from "./create_form.js";
import { $, showProblem } from "./dom.js";
import { drawOptions, readOptions } from "./options.js";

async function chooseRuleset(ruleset) {
  const size = $("tourney-table-size");
  size.min = ruleset.min_players;
  size.max = ruleset.max_players;
  size.value = Math.min(ruleset.max_players, Math.max(ruleset.min_players, Number(size.value) || 2));
  const details = await get(`/v1/rulesets/${encodeURIComponent(ruleset.id)}`);
  drawOptions($("tourney-options"), details.options_schema);
}

function build(ruleset) {
  const body = {
    ruleset: ruleset.id, format: $("tourney-format").value, table_size: Number($("tourney-table-size").value),
    entrants: $("tourney-entrants").value.split("\n").map((line) => line.trim()).filter(Boolean),
    rated: $("tourney-rated").checked, options: readOptions($("tourney-options")),
  };
  const rounds = numberOrNull("tourney-rounds");
  if (rounds !== null) body.rounds = rounds;
  const seed = numberOrNull("tourney-seed");
  if (seed !== null) body.seed = seed;
  return body;
}

mountCreateForm({
  form: "tourney-form", select: "tourney-ruleset", chooseRuleset, build, path: "/v1/tournaments",
  pageOf: (made) => `/tournament/${encodeURIComponent(made.id)}`,
}).catch(showProblem);
