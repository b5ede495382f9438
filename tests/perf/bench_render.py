"""CPU to draw a table's sheet and entry form, game by game.

    python tests/perf/bench_render.py [--runs 300] [--app-dir DIR] [--json PATH]

In-process (Flask's test client on a fresh SQLite file). For each game a fresh table is
made from its new-table form (score pad, Zock'n'Roll, Rocca and RockIt for three; Rook and
Rainbow Rummy for four), seen by its host; then `--runs` times: the shared fragments are
forgotten (`companion.web.fragments.clear()`) and the host asks for `/t/<id>/play` the way
the page does after a change, so `tables/_play.html` is drawn afresh each time. Reported:
the median CPU (`time.process_time()`) of drawing the sheet and form (`_shared` in
companion/web/table.py: the template and the shared-fragment bookkeeping) and of the whole
request (which also draws the page's chrome: no `since`, so it is sent). Drawing the sheet
and form is what every change at a table costs once (the writer's answer and every phone's
refresh share it).

`--app-dir DIR` imports the `companion` package from DIR (a snapshot of another commit,
for a before/after comparison; a copy without `_shared` has its `render_template` measured,
the chrome's included, so compare the whole requests). Writes JSON (default test-artifacts/bench_render.json).
docs/BENCHMARKS.md ("An entry costs the same in the twentieth game", round 3) has figures.
Not collected by pytest (`norecursedirs` skips tests/perf).
"""
from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
GAMES = {"scorepad": 3, "zocknroll": 3, "rook": 4, "rainbow_rummy": 4, "rocca": 3, "rockit": 3}
NAMES = ["Ann", "Bob", "Cy", "Di"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--app-dir", help="import `companion` from this folder")
    parser.add_argument("--json", default=str(REPO / "test-artifacts" / "bench_render.json"))
    args = parser.parse_args(argv)
    if args.app_dir:
        sys.path.insert(0, str(Path(args.app_dir).resolve()))
    sys.path.insert(0, str(HERE.parent / "web"))
    sys.path.insert(0, str(HERE.parent))

    import companion.web.table as web_table
    from bench_entry_cost import Meter
    from companion.web import fragments
    from helpers import machine
    from web_helpers import Phone, create_game_table, make_app

    app = make_app(Path(tempfile.mkdtemp(prefix="companion-render-")))
    # The shared drawing of the sheet and form (fragments.play); an older copy (--app-dir)
    # has it as web/table.py `_shared`, or not at all (its templates alone, chrome included).
    if hasattr(fragments, "play"):
        metered = "fragments.play"
        render = Meter(fragments, "play")
    else:
        metered = "_shared" if hasattr(web_table, "_shared") else "render_template"
        render = Meter(web_table, metered)
    results = {}
    for slug, players in GAMES.items():
        host = Phone(app, f"host-{slug}")
        table_id = create_game_table(host, slug, NAMES[:players])
        drawing, request = [], []
        for _ in range(args.runs + 5):
            fragments.clear()
            gc.collect()
            render.reset()
            started = time.process_time()
            r = host.get(f"/t/{table_id}/play", hx=True)
            request.append(time.process_time() - started)
            assert r.status_code == 200, r.status_code
            drawing.append(render.last)
        drawing, request = drawing[5:], request[5:]      # the first few warm the caches
        results[slug] = {"players": players, "render_ms": round(statistics.median(drawing) * 1000, 3),
                         "request_ms": round(statistics.median(request) * 1000, 3),
                         "answer_bytes": len(r.get_data())}
        print(f"{slug:>14}  {players} players  drawing {results[slug]['render_ms']:6.3f} ms  "
              f"request {results[slug]['request_ms']:6.3f} ms  ({results[slug]['answer_bytes']} bytes)")
    out = {"machine": machine("flask", "jinja2"),
           "command": " ".join(["python", "tests/perf/bench_render.py", *(argv or sys.argv[1:])]),
           "runs": args.runs, "drawing_measured_in": metered, "games": results}
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(out, indent=2))
    print(f"\nJSON: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
