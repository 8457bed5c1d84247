"""Experiments played by real worker processes: pairing, precision stopping, cancel."""

from __future__ import annotations

import json

from rq import Queue

from api.experiments import lifecycle as experiments
from api.experiments.store import plan_key
from api.runs.keys import job_prefix, jobs_key, lease_key, run_key, tallies_key
from api.simulations import lifecycle as simulations
from engine.core.registry import get_ruleset
from engine.experiments.design import Variant
from engine.experiments.measures import VariantTally, play_experiment_chunk
from engine.experiments.report import next_round_games, precision_state, stop_reason
from engine.simulate import game_seed, play_game
from tests.processes import wait_for

RULESET = "monopoly-cars2"


def finished(redis, exp_id: str, timeout: float = 90) -> dict:
    return wait_for(lambda: (s := experiments.status(redis, exp_id))["status"] in ("finished", "failed") and s,
                    timeout=timeout, interval=0.1)


def test_a_small_sweep_gives_the_results_of_separate_simulations_of_the_same_seeds(redis, workers):
    workers.start(2)
    body = {"ruleset": RULESET, "players": 2, "bots": ["heuristic", "random"],
            "sweep": {"starting_money": [10, 26]}, "games": 300, "seed": 5, "chunk_size": 60}
    exp_id = experiments.submit(redis, body)
    sims = [simulations.submit(redis, {"ruleset": RULESET, "players": 2, "bots": ["heuristic", "random"],
                                       "options": options, "games": 300, "seed": 5, "chunk_size": 100})
            for options in ({}, {"starting_money": 10}, {"starting_money": 26})]
    state = finished(redis, exp_id)
    assert state["status"] == "finished", state["error"]
    for sim_id, variant in zip(sims, state["result"]["variants"], strict=True):
        plain = wait_for(lambda sim_id=sim_id: (s := simulations.status(redis, sim_id))["status"] == "finished" and s,
                         timeout=90)["result"]
        assert variant["games"] == 300 and variant["stopped"] == "games"
        assert variant["win_rates"] == plain["win_rates"]
        assert variant["win_rate_ci95"] == plain["win_rate_ci95"]
        assert variant["turns"]["histogram"] == plain["turns"]["histogram"]
        assert variant["mean_scores"] == plain["mean_scores"]
    assert state["progress"]["chunks_done"] == 5 and state["progress"]["games_done"] == 900
    assert sum(state["progress"]["workers"].values()) == 5

    # The difference from the base is the mean of the games' differences, seed by seed.
    ruleset = get_ruleset(RULESET)
    bots = ["heuristic", "random"]
    first_seat = []
    for index in range(300):
        base = play_game(ruleset, 2, bots, {}, game_seed(5, index))
        rich = play_game(ruleset, 2, bots, {"starting_money": 26}, game_seed(5, index))
        first_seat.append((rich.result.winners == [0]) - (base.result.winners == [0]))
    got = state["result"]["variants"][2]["difference"]["win_rates"][0]
    assert got["pairs"] == 300
    assert abs(got["difference"] - sum(first_seat) / 300) < 1e-6
    assert "p_holm" in got


def _replay_stops(spec: dict) -> dict[int, tuple[int, str]]:
    """The precision experiment's rounds replayed in this process: variant -> (games, reason)."""
    variants = [Variant.from_dict(v) for v in spec["variants"]]
    totals = [VariantTally.empty(2, v.bots) for v in variants]
    stopped: dict[int, tuple[int, str]] = {}
    done = 0
    while True:
        playing = [v for v in range(len(variants)) if v not in stopped]
        if not playing:
            return stopped
        playing = sorted({0, *playing})
        more = next_round_games(done, spec["stop"], spec["chunk_size"])
        if more == 0:
            for v in playing:
                stopped[v] = (totals[v].tally.games, "budget")
            return stopped
        chunk = play_experiment_chunk(RULESET, 2, variants, playing, spec["seed"], done, more)
        for v, tally in chunk.items():
            totals[v].merge(tally)
        done += more
        for v in range(1, len(variants)):
            if v not in stopped:
                reason = stop_reason(precision_state(totals[v], spec["stop"], len(variants) - 1), spec["stop"], False)
                if reason:
                    stopped[v] = (totals[v].tally.games, reason)
        if all(v in stopped for v in range(1, len(variants))) and 0 not in stopped:
            reason = stop_reason(precision_state(totals[0], spec["stop"], len(variants) - 1), spec["stop"], True)
            if reason:
                stopped[0] = (totals[0].tally.games, reason)


def test_stopping_by_precision_stops_each_variant_where_the_rule_says(redis, workers):
    workers.start(2)
    body = {"ruleset": RULESET, "players": 2, "bots": ["random"], "seed": 3, "chunk_size": 100,
            "variants": [{"name": "heuristic first", "bots": ["heuristic", "random"]},
                         {"name": "same", "options": {}},
                         {"name": "rich", "options": {"starting_money": 22}}],
            "stop": {"difference_within": 0.08, "max_games": 3000, "min_games": 300}}
    exp_id = experiments.submit(redis, body)
    state = finished(redis, exp_id, timeout=120)
    assert state["status"] == "finished", state["error"]
    spec = json.loads(redis.hget(run_key(experiments.KIND, exp_id), "spec"))
    expected = _replay_stops(spec)
    got = {v: (r["games"], r["stopped"]) for v, r in enumerate(state["result"]["variants"])}
    assert got == expected
    # A variant identical to the base plays the same games: shown equivalent after the first round.
    same = state["result"]["variants"][2]
    assert (same["games"], same["stopped"], same["precision"]["verdicts"]) == (300, "difference_decided",
                                                                                ["equivalent", "equivalent"])
    assert same["difference"]["win_rates"][0]["correlation"] == 1.0
    assert len({games for games, _ in got.values()}) > 1, got  # the variants stopped apart
    assert got[0] == (max(g for g, _ in got.values()), "variants_done")


def test_cancel_stops_every_chunk(redis, workers):
    workers.start(2)
    body = {"ruleset": RULESET, "players": 2, "bots": ["random"], "sweep": {"starting_money": [10, 14, 22]},
            "games": 100_000, "seed": 1, "chunk_size": 500}
    exp_id = experiments.submit(redis, body)
    wait_for(lambda: experiments.status(redis, exp_id)["progress"]["chunks_done"] >= 1, timeout=60)
    state = experiments.cancel(redis, exp_id)
    assert state["status"] == "cancelled"
    queue = Queue(simulations.QUEUE, connection=redis)
    assert not [job_id for job_id in queue.get_job_ids() if job_id.startswith(job_prefix(experiments.KIND, exp_id))]
    # The running chunks notice within their lease check and let go without recording.
    wait_for(lambda: not redis.keys(lease_key(experiments.KIND, exp_id, "*")), timeout=30, interval=0.05)
    recorded = redis.hlen(tallies_key(experiments.KIND, exp_id))
    after = experiments.status(redis, exp_id)
    assert after["status"] == "cancelled"
    assert after["progress"]["chunks_done"] == recorded < after["progress"]["chunks_queued"] == 200
    assert after["result"]["variants"][0]["games"] == recorded * 500


def test_the_cli_prints_a_table_and_plots_a_sweep(redis_db_url, workers, tmp_path):
    from tests.processes import run_cli

    workers.start(1)
    plot = tmp_path / "sweep.png"
    done = run_cli("experiment", RULESET, "--players", "2", "--sweep", "starting_money=6,24", "--games", "200",
                   "--seed", "4", "--plot", str(plot), redis_url=redis_db_url, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "monopoly-cars2: 2 players, seed 4, finished"
    assert lines[1].index("first mover wins") < lines[1].index("vs base") < lines[1].index("seat 0 wins")
    assert [line.split()[0] for line in lines[2:5]] == ["base", "starting_money=6", "starting_money=24"]
    assert all(line.split()[1] == "200" for line in lines[2:5])
    assert lines[5].startswith("with starting_money=") and " the first mover's edge is " in lines[5]
    assert plot.stat().st_size > 10_000
    bad = run_cli("experiment", RULESET, "--sweep", "starting_money=-1", redis_url=redis_db_url)
    assert bad.returncode == 2 and "sweep" in bad.stderr


def test_a_new_worker_finishes_an_experiment_after_one_is_killed_mid_chunk(redis, workers):
    import os
    import signal

    (first,) = workers.start(1)
    body = {"ruleset": RULESET, "players": 2, "sweep": {"starting_money": [10, 24]}, "games": 1200, "seed": 6,
            "chunk_size": 300}
    exp_id = experiments.submit(redis, body)
    wait_for(lambda: redis.hlen(tallies_key(experiments.KIND, exp_id)) >= 1, timeout=60, interval=0.01)
    wait_for(lambda: redis.keys(lease_key(experiments.KIND, exp_id, "*")), timeout=30, interval=0.005)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    assert redis.hlen(tallies_key(experiments.KIND, exp_id)) < 4
    workers.start(1)
    # Watch the raw hash: ``experiments.status`` would re-queue the lost chunk itself; here the worker's sweep must.
    wait_for(lambda: redis.hget(run_key(experiments.KIND, exp_id), "status") == b"finished", timeout=90, interval=0.2)
    state = experiments.status(redis, exp_id)
    assert [v["games"] for v in state["result"]["variants"]] == [1200, 1200, 1200]
    assert state["progress"]["chunks_done"] == 4


def test_the_cli_runs_an_experiment_on_a_remote_service_with_the_same_results(redis_db_url, workers):
    from tests.processes import run_cli
    from tests.sdk.conftest import serving

    workers.start(1)
    args = ["experiment", RULESET, "--players", "2", "--lineup", "strong first=heuristic,random", "--games", "60",
            "--seed", "8", "--json"]
    local = run_cli(*args, redis_url=redis_db_url)
    with serving({"REDIS_URL": redis_db_url}) as url:
        remote = run_cli(*args, "--url", url, redis_url="")
        refused = run_cli("experiment", RULESET, "--sweep", "starting_money=-1", "--url", url, redis_url="")
    assert local.returncode == 0, local.stderr
    assert remote.returncode == 0, remote.stderr
    mine, theirs = (json.loads(done.stdout)["result"]["variants"] for done in (local, remote))
    for variant in mine + theirs:
        variant.pop("cpu_seconds")
    assert mine == theirs
    assert refused.returncode == 2 and "/sweep/starting_money/0" in refused.stderr
    assert refused.stderr.count("\n") == 1, refused.stderr


def test_reap_requeues_chunks_taken_from_the_queue_but_never_started(redis):
    settings = simulations.Settings(ttl=600, lease_seconds=2, job_timeout=60)
    body = {"ruleset": RULESET, "players": 2, "sweep": {"starting_money": [10]}, "games": 90, "seed": 4,
            "chunk_size": 30}
    exp_id = experiments.submit(redis, body, settings)
    queue = Queue(experiments.QUEUE, connection=redis)
    job_ids = {int(k): v.decode() for k, v in redis.hgetall(jobs_key(experiments.KIND, exp_id)).items()}
    # Workers that then died before RQ marked the jobs started: one on several queues takes a job
    # with LPOP, one on a single queue moves it to RQ's intermediate list.
    assert redis.lpop(queue.key).decode() == job_ids[0]
    assert redis.lmove(queue.key, queue.intermediate_queue_key).decode() == job_ids[1]
    # First seen out of the queue: a live worker would start them within milliseconds.
    assert experiments.reap(redis, exp_id, settings) == 0
    assert queue.get_job_ids() == [job_ids[2]]
    # Still not started a lease later: lost, and queued again with the variants they played.
    assert wait_for(lambda: experiments.reap(redis, exp_id, settings), timeout=30) == 2
    now_responsible = {int(k): v.decode() for k, v in redis.hgetall(jobs_key(experiments.KIND, exp_id)).items()}
    assert now_responsible[2] == job_ids[2]
    assert {now_responsible[0], now_responsible[1]}.isdisjoint({job_ids[0], job_ids[1]})
    assert queue.get_job_ids() == [job_ids[2], now_responsible[0], now_responsible[1]]
    assert json.loads(redis.hget(plan_key(exp_id), 0)) == [0, 1]
    assert experiments.reap(redis, exp_id, settings) == 0
    for index in range(3):
        experiments.ExperimentChunkRun(redis, exp_id, index, settings).run()
    state = experiments.status(redis, exp_id)
    assert state["status"] == "finished"
    assert [v["games"] for v in state["result"]["variants"]] == [90, 90]


def test_an_experiment_with_drama_reads_the_games_the_engine_reads(redis, workers):
    workers.start(2)
    body = {"ruleset": RULESET, "players": 3, "bots": ["heuristic"], "sweep": {"starting_money": [24]},
            "games": 80, "seed": 9, "chunk_size": 20, "drama": True}
    state = finished(redis, experiments.submit(redis, body))
    assert state["status"] == "finished", state["error"]
    assert state["drama"] is True and state["progress"]["chunks_done"] == 4
    spec = json.loads(redis.hget(run_key(experiments.KIND, state["id"]), "spec"))
    variants = [Variant.from_dict(v) for v in spec["variants"]]
    alone = play_experiment_chunk(RULESET, 3, variants, [0, 1], 9, 0, 80, drama=True)
    for v, variant in enumerate(state["result"]["variants"]):
        drama = variant["drama"]
        assert drama["games"] == 80 and drama["skill_index"]["games"] == 20
        assert drama["kingmaking"]["games"]["count"] == alone[v].drama.kingmaker_games
        assert drama["comebacks"]["count"] == alone[v].drama.comebacks
        assert drama["model_calls"] == alone[v].drama.model_calls > 80
    assert state["result"]["variants"][1]["difference"]["drama"]["kingmaker"]["pairs"] == 80
    assert "Drama: the base is decided at" in state["result"]["summary"]
    # Without drama nothing of it is computed.
    plain = finished(redis, experiments.submit(redis, {**body, "drama": False}))
    assert plain["drama"] is False and "drama" not in plain["result"]["variants"][0]


def test_the_cli_prints_the_drama_table(redis_db_url, workers):
    from tests.processes import run_cli

    workers.start(1)
    done = run_cli("experiment", RULESET, "--players", "3", "--variant", 'rich={"starting_money": 24}', "--games",
                   "40", "--seed", "4", "--drama", redis_url=redis_db_url, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("drama "))
    assert "kingmaker games" in lines[header] and "skill index" in lines[header]
    assert [line.split()[0] for line in lines[header + 1:header + 3]] == ["base", "rich"]
    assert "Drama: the base is decided at" in lines[-1]


def test_a_simulation_with_drama_reads_what_the_engine_reads_and_the_cli_prints_it(redis, redis_db_url, workers):
    from engine.experiments.drama import play_drama_chunk
    from tests.processes import run_cli

    workers.start(2)
    body = {"ruleset": RULESET, "players": 3, "bots": ["heuristic"], "games": 60, "seed": 4, "chunk_size": 20,
            "drama": True}
    sim_id = simulations.submit(redis, body)
    state = wait_for(lambda: (s := simulations.status(redis, sim_id))["status"] in ("finished", "failed") and s,
                     timeout=90)
    assert state["status"] == "finished", state["error"]
    assert state["drama"] is True
    alone = play_drama_chunk(RULESET, 3, ["heuristic"], {}, 4, 0, 60).drama
    drama = state["result"]["drama"]
    assert drama["games"] == 60 and drama["skill_index"]["games"] == 15
    assert drama["model_calls"] == alone.model_calls and drama["comebacks"]["count"] == alone.comebacks
    assert drama["kingmaking"]["games"]["count"] == alone.kingmaker_games
    done = run_cli("simulate", RULESET, "--players", "3", "--bots", "heuristic", "--games", "60", "--seed", "4",
                   "--drama", redis_url=redis_db_url, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"comebacks {drama['comebacks']['rate']:.3f}" in done.stdout and "skill index" in done.stdout
