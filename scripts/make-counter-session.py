#!/usr/bin/env python3
"""Writes a counter session of N actions (default 100,000): a small state (two numbers) on every line.

The scripted sample app drops actions when it dispatches faster than its recorder writes (a gap, by design), so
this writes a long gap-free session directly: increments, decrements, step changes and resets, full state
snapshots, as the counter reducer (samples/Features/Counter.swift) computes them. The benchmark's small-state
session for the whole-process replay rows (Benchmarks/run.sh).
Usage: scripts/make-counter-session.py OUT.jsonl [N]
"""
import json
import random
import sys


def line(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):  # --help, or an option that would name the file written
        asked = sys.argv[1:2] in (["-h"], ["--help"])
        print(__doc__.strip(), file=sys.stdout if asked else sys.stderr)
        sys.exit(0 if asked else 2)
    out, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    rng = random.Random(1)
    state = {"count": 0, "step": 1}
    with open(out, "w", encoding="utf-8") as file:
        file.write(line({
            "app": {"build": "1", "name": "SampleApp", "schemaVersion": "1", "version": "1.0"}, "format": 1,
            "host": "generated", "initialState": state, "kind": "session", "metadata": {}, "pid": 1,
            "sessionId": "6A1B3C4D-0000-4000-8000-00000000C0DE", "startedAt": "2026-11-24T10:00:00.000Z",
            "storeId": "counter"}) + "\n")
        for seq in range(1, count + 1):
            roll = rng.random()
            if roll < 0.6:
                action, name = {"increment": {}}, "increment"
                state = dict(state, count=state["count"] + state["step"])
            elif roll < 0.9:
                action, name = {"decrement": {}}, "decrement"
                state = dict(state, count=state["count"] - state["step"])
            elif roll < 0.98:
                step = rng.randrange(1, 10)
                action, name = {"setStep": {"_0": step}}, "setStep"
                state = dict(state, step=step)
            else:
                action, name = {"reset": {}}, "reset"
                state = dict(state, count=0)
            file.write(line({"action": action, "kind": "action", "name": name, "origin": "app", "seq": seq,
                             "state": state, "time": seq * 0.001}) + "\n")
        file.write(line({"actions": count, "dropped": 0, "kind": "end", "reason": "finished", "time": count * 0.001}) + "\n")


if __name__ == "__main__":
    main()
